// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "print_symbolic.h"

/* the field an argument reads, looking through casts and operators */
static const char *arg_field(struct tep_print_arg *arg)
{
	const char *name;

	for (; arg; ) {
		switch (arg->type) {
		case TEP_PRINT_FIELD:
			return arg->field.name;
		case TEP_PRINT_TYPE:
			arg = arg->typecast.item;
			break;
		case TEP_PRINT_OP:
			name = arg_field(arg->op.left);
			if (name)
				return name;
			arg = arg->op.right;
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

static struct tep_print_arg *find_symbolic(struct tep_print_arg *arg, const char *field)
{
	struct tep_print_arg *found;

	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_SYMBOL: {
			const char *name = arg_field(arg->symbol.field);

			if (name && !strcmp(name, field))
				return arg;
			break;
		}
		case TEP_PRINT_OP:
			found = find_symbolic(arg->op.left, field);
			if (!found)
				found = find_symbolic(arg->op.right, field);
			if (found)
				return found;
			break;
		case TEP_PRINT_TYPE:
			found = find_symbolic(arg->typecast.item, field);
			if (found)
				return found;
			break;
		case TEP_PRINT_FUNC:
			found = find_symbolic(arg->func.args, field);
			if (found)
				return found;
			break;
		default:
			break;
		}
	}
	return NULL;
}

int symtab_from_event(struct tep_event *ev, const char *field, struct symtab *tab)
{
	struct tep_print_flag_sym *sym;
	struct tep_print_arg *arg;
	unsigned long long v, max = 0;
	char *end;

	tab->name = NULL;
	tab->n = 0;
	arg = find_symbolic(ev->print_fmt.args, field);
	if (!arg || !arg->symbol.symbols)
		return -1;
	for (sym = arg->symbol.symbols; sym; sym = sym->next) {
		v = strtoull(sym->value, &end, 0);
		if (end == sym->value || *end || v > 65535)
			return -1;	/* an enum name the kernel did not resolve */
		if (v > max)
			max = v;
	}
	tab->n = max + 1;
	tab->name = calloc(tab->n, sizeof(*tab->name));
	if (!tab->name) {
		tab->n = 0;
		return -1;
	}
	for (sym = arg->symbol.symbols; sym; sym = sym->next)
		tab->name[strtoull(sym->value, NULL, 0)] = sym->str;
	return 0;
}

void symtab_free(struct symtab *tab)
{
	free(tab->name);
	tab->name = NULL;
	tab->n = 0;
}
