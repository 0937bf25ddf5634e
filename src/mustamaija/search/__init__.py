"""Search: the exact endgame solver (and later the search players)."""
