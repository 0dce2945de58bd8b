// SPDX-License-Identifier: GPL-2.0
/*
 * Run a fuzz target on the files given, without libFuzzer: the regression
 * tests build the targets with gcc's sanitizers and this main().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL, *exact;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (len == cap) {
				cap = cap ? 2 * cap : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		/* exactly the input's size, as libFuzzer passes it: ASan sees overreads */
		exact = malloc(len ? len : 1);
		if (!exact)
			abort();
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
		printf("ok %s\n", argv[i]);
	}
	return 0;
}
