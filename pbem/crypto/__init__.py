"""Keys and signatures: Ed25519 keys in OpenSSH formats, SSHSIG signatures (protocol section 2)."""
