"""Game-agnostic protocol core: canonical JSON, entries, hash chains, commitments, the
deferral-rule generator, the engine contract and its registry, the adjudicator, league
options and double-blind games.

What core imports from the rest of pbem: the ground modules pbem.errors and pbem.record
(which import nothing of pbem), and two modules of pbem.crypto that import nothing of
pbem but pbem.errors, pbem.record and pbem.crypto.wire (so no arrow comes back):

- pbem.crypto.keyline (adjudicator): a role's public-key line read to its raw 32 bytes,
  plain base64 and no cryptography, which is how the rules compare keys;
- pbem.crypto.sealcheck (blind): a double-blind game's sealed messages, checked (some key
  can open them) and opened with a published message key.

Games are found by name at run time: the registry (engine.register, engine.get_engine;
pbem.games registers the titles) imports a game's rules on first use, the only import
core makes by name.
"""
