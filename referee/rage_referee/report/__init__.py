"""Pages: the league report (a static site), its replay viewer, and the live pages of a hosted referee."""
