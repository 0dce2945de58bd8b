/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which source lines of a C file are error handling.  The definition is in
 * README.md ("Error paths"); in short, a line is error handling when it is
 *
 *  E1  in the body of an if whose condition is an error test
 *      (ret/err/... tested as true, < 0, != 0, == -E..., IS_ERR(), !access_ok());
 *  E2  in a switch arm labelled with a negative errno (case -EFAULT:);
 *  E3  after an error label (name with fault, err, fail, out_e<errno>, *_retry)
 *      up to the next label or the end of the function;
 *  E4  in a statement that produces a negative errno (return -EFAULT;).
 *
 * The condition lines of E1 are marked as error tests: their branches
 * count as error-path branches.
 */
#ifndef FFR_ERRPATH_H
#define FFR_ERRPATH_H

#include <stddef.h>

#define EP_ERROR	1	/* error-handling line */
#define EP_TEST		2	/* holds an error test */

/*
 * Classify the lines of src.  Returns an array indexed by line number
 * (1..*nlines, element 0 unused) of EP_* flags; free() it.
 */
unsigned char *errpath_classify(const char *src, size_t len, int *nlines);

#endif /* FFR_ERRPATH_H */
