"""Law over time: the convention's versions as amending instruments change it, its dates of effect,
and the Multilateral Instrument's positions.

- `consolidate`: the consolidated text of a version, each piece traced to the text that prints it;
- `timeline`: the versions in order of effect, and the decision on the one in effect on a payment date;
- `mli`: MLI positions as data (`taxtreaty/data/mli/`) and what they add to a decision.
"""
