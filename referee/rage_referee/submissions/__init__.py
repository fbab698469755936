"""Contest submissions: a bot's folder or archive, its ``rage-bot.toml`` manifest, and its version."""
