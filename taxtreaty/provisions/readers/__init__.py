"""One reader per kind of provision: each takes a paragraph's units (`citing.Unit`) and the
language's phrases, and returns the provisions it read, in the order of the text.

- `caps`: withholding caps and the conditions that select each rate;
- `exemptions`: exemptions at source (or in the host State) and who they apply to;
- `allocations`: which State may tax, its exceptions, the permanent-establishment switch;
- `thresholds`: days, months, years and sums of money;
- `relief`: the method each State uses to eliminate double taxation;
- `final_clauses`: time limits, dates of entry into force and effect, termination, the
  prevailing language;
- `anti_abuse`: the tests of anti-abuse rules.

Which reader reads which article is `extract.READERS`; what one provision does to others is
`passes`.
"""
