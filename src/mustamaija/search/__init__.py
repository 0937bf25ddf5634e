"""Search for every game, over the game protocol: PIMC, ISMCTS, hints, and what a game tells them (its search kit)."""
