# SPDX-License-Identifier: MIT
"""The helpers of the kernel-matrix and architecture VMs (tools/arch/vm/):
the initramfs writer, the builds and reports of the guests' runs. The shell
scripts stay in tools/arch/vm/."""
