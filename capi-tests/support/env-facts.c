/* SPDX-License-Identifier: MIT */
/*
 * Built and run by capi-tests/run.sh before the tests, for the environment
 * facts that need a system call to learn (env-facts.h):
 *   env-facts FACT    exit 0 when FACT holds, 1 when it does not.
 * Links nothing but libc: the library under test plays no part in it.
 */
#include "../env-facts.h"

int main(int argc, char **argv)
{
	return argc == 2 && env_fact(argv[1]) ? 0 : 1;
}
