"""One refereed game: its spec, its referee, its meta and result, and where its deals come from."""
