"""Game-agnostic protocol core. Imports nothing from other pbem packages except pbem.errors."""
