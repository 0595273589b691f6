# SPDX-License-Identifier: MIT
"""liburing's Debian source: the one downloader (the machine's apt mirror),
fetching and building upstream, the subprocess helpers every tool uses, and
the first-release table's writer."""
