"""The benchmark's switches (benchmarks/switches.py): each replaces what it names while it is on and
puts it back, and each plain path reads what the mechanism it stands in for reads, so that
`make bench`'s "without" figures measure the same answers reached the plain way.
"""

from __future__ import annotations

import pytest

from benchmarks import switches


@pytest.mark.parametrize("mechanism", switches.MECHANISMS)
def test_a_switch_replaces_what_it_names_while_on_and_puts_it_back(mechanism):
    replaced = switches._replacements([mechanism])
    before = [getattr(target, attribute) for target, attribute, _plain in replaced]

    with switches.switched_off(mechanism):
        assert [getattr(target, attribute) for target, attribute, _plain in replaced] == [
            plain for _target, _attribute, plain in replaced]
    assert [getattr(target, attribute) for target, attribute, _plain in replaced] == before


def test_an_unknown_mechanism_is_refused():
    with pytest.raises(ValueError, match="no mechanism"), switches.switched_off("row_cach"):
        pass
