"""Playing by email: `pbem mail send` over SMTP, `pbem mail fetch` from IMAP, Maildir or mbox."""

# The biggest message `pbem mail fetch` reads: a mail carries a few moves, or a save (a
# whole game is a few hundred entries, well under a megabyte). An IMAP fetch stops one
# byte past it; anything bigger is refused, message by message.
MAX_MESSAGE_BYTES = 8 * 1024 * 1024
