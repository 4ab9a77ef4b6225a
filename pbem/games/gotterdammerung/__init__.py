"""Götterdämmerung (Fall of Berlin 1945): the game's data files and their loaders only.

Not registered in pbem/games/__init__.py yet: the engine comes later (issue 16).
"""
