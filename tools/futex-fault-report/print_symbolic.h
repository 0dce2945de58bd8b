/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The value -> name table of a __print_symbolic() in an event's print fmt.
 * The kernel writes the site enum into the format with TRACE_DEFINE_ENUM,
 * so the names come from the trace itself and no list is compiled in.
 */
#ifndef FFR_PRINT_SYMBOLIC_H
#define FFR_PRINT_SYMBOLIC_H

#include <event-parse.h>

struct symtab {
	const char	**name;		/* [value], NULL for holes; strings owned by the event */
	unsigned int	n;
};

/*
 * Fill tab from the first __print_symbolic() applied to the field named
 * field (possibly through a cast or an arithmetic operator).
 * Returns 0, or -1 if the print fmt has none or a value is not a number.
 */
int symtab_from_event(struct tep_event *ev, const char *field, struct symtab *tab);
void symtab_free(struct symtab *tab);

static inline const char *symtab_name(const struct symtab *tab, unsigned long long v)
{
	return v < tab->n ? tab->name[v] : NULL;
}

#endif /* FFR_PRINT_SYMBOLIC_H */
