"""Moving entries through text: the armor of protocol section 7 and the move files of section 6."""
