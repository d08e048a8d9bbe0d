"""``{% new_request_key %}``: the one-time key of a form (partials/request_key.html).

A fresh one, unless the page was opened with the key it showed before (``?key=``:
a reload or Back of a form not saved yet), or is the form sent back with its
problems (its post saved nothing, so its key is still free): those keep it. A card of
several forms, each saving something of its own (the payments: one "mark as paid" per
transfer), says ``one_key_per_form``: drawn again after a post, its forms must not all
carry the key that post spent, or a double tap on the next one would not be seen as one.
"""

from django import template

from mighty_ledger.http.request_keys import form_key, new_form_key, shown_form_key

register = template.Library()


@register.simple_tag(takes_context=True)
def new_request_key(context) -> str:
    request = context.get("request")
    if context.get("one_key_per_form"):
        return new_form_key()
    return (request is not None and (shown_form_key(request) or form_key(request))) or new_form_key()
