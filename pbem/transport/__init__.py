"""Moving entries through text: the armor of protocol section 7, the move files of section 6
and the mail messages that carry them."""
