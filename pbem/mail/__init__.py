"""Playing by email: `pbem mail send` over SMTP, `pbem mail fetch` from IMAP, Maildir or mbox."""
