"""Game records as commands read them: from a file, shown, asked again of a bot, as coloured text."""
