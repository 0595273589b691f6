# SPDX-License-Identifier: MIT
"""make lint's checks that are not a linter's: the repository's file names
cited in comments and documentation resolve (cited_files.py)."""
