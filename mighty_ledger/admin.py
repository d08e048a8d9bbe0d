"""The site operator's view of the ledger. Players never see this: they use their links."""

from django.contrib import admin

from mighty_ledger.models import Group, Hand, Player, Revision, Session


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at", "deleted_at"]
    search_fields = ["name"]
    list_filter = ["deleted_at"]
    readonly_fields = ["edit_token", "view_token", "created_at"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group"]
    search_fields = ["name", "group__name"]
    list_select_related = ["group"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "group", "played_on", "preset", "hand_count", "deleted_at"]
    list_filter = ["preset", "played_on"]
    search_fields = ["title", "group__name"]
    list_select_related = ["group"]
    # totals, pot and the frozen system are kept by the services; editing them here would desync the hands
    readonly_fields = ["system_options", "totals", "pot", "hand_count", "created_at"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "kind", "version", "created_at", "deleted_at"]
    list_filter = ["kind"]
    list_select_related = ["session"]
    raw_id_fields = ["session"]
    readonly_fields = ["result", "payments", "running_totals", "pot_after", "version", "created_at", "updated_at"]


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    list_display = ["subject", "action", "by", "created_at", "group"]
    list_filter = ["subject", "action"]
    list_select_related = ["group"]
    raw_id_fields = ["group", "session", "hand"]

    def has_change_permission(self, request, obj=None):
        return False  # the history is a record, not something to rewrite
