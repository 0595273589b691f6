# SPDX-License-Identifier: MIT
"""The Debian package's checks (make check-debian and its cross form), the
clean sid root they build in, and the writer of the symbols file. The
recipe stays in packaging/debian/."""
