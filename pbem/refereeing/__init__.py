"""An unattended referee (`pbem referee`, issue 17, docs/referee.md).

A store that holds a game's `referee` key runs, from cron or in a loop, rounds that
never wait on a person: read the mailbox (pbem.mail.fetch, one transaction per message),
sign the joins and acknowledgements the referee owes (so a player's dice resolve in one
mail round trip), keep each game's deadline clock (reminders, then a signed forfeit),
and mail each player the entries it has not been sent with its own turn page.

    clock.py     deadline arithmetic: when the reminders and the forfeit are due (pure)
    settle.py    the referee's own entries: invitations, joins, acknowledgements
    letters.py   the messages a referee mails: a player's turn, a reminder (pure)
    postman.py   sending them, recorded only once the SMTP server took them
    rounds.py    one round over every refereed game
    status.py    what `pbem referee status` says

The `pbem referee` commands are pbem.cli.referee.
"""

# New games a run accepts without a roster, unless --max-new-games says otherwise: anyone
# can mail a referee invitations from keys made for the purpose (101 were joined in 1.4 s),
# and each is a game the referee then keeps, rolls dice for and mails. (Here, not in
# settle.py, so that `pbem --help` can name it without importing the referee's code.)
DEFAULT_NEW_GAMES = 5
