"""One module per kernel: PARAMS / RESULT signatures, an input check, and the
NumPy, JAX and Numba implementations (see ../README.md)."""
