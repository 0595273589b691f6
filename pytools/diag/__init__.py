# SPDX-License-Identifier: MIT
"""The diagnostics' viewers: the timeline (HTML) of a LIBURING_TRACE JSON
trace."""
