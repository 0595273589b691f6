# SPDX-License-Identifier: MIT
"""The man pages' checks (make check-man): the pages' claims, their coverage of
the API, their text's provenance. The checks' C sources stay in man/."""
