"""The catalogue in Django admin: search, filters, edits checked like the fixtures, and a JSON/CSV import page."""
import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.text import slugify

from game.language.schema import EffectSchemaError, check_counter, validate

from . import loader
from .models import (
    CAVES,
    COST_ITEMS,
    BoardFact,
    CaveCard,
    Dragon,
    Expansion,
    GuildAbility,
    GuildTile,
    ObjectiveSide,
    ObjectiveTile,
    Printing,
)

EXPORT_PERMISSIONS = [f"cardsite.view_{model._meta.model_name}"
                      for model in (Expansion, Dragon, CaveCard, GuildTile, GuildAbility, ObjectiveTile, ObjectiveSide,
                                    BoardFact)]


def _form_field(model_fields, bad_field):
    """Map a loader field path ('cost.meat', 'abilities[0].effect.do') to the form field that holds it."""
    head = bad_field.split(".")[0].split("[")[0]
    if head == "cost":
        item = bad_field.split(".")[1] if "." in bad_field else ""
        return f"cost_{item}" if f"cost_{item}" in model_fields else None
    if head == "habitats":
        return None
    return head if head in model_fields else None


class CardForm(forms.ModelForm):
    """Runs the loader's checks on the edited card, so admin edits obey the same rules as the fixtures."""

    section = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["abilities"].required = False  # a card may be saved before its abilities are encoded

    def record(self, data):
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            self.row = loader.CLEANERS[self.section](self.record(data))
        except loader.RecordError as bad:
            target = _form_field(self.fields, bad.field)
            raise ValidationError({target: f"{bad.field}: {bad}"} if target else f"{bad.field}: {bad}") from None
        original = None
        if data.get("printing") == Printing.UPDATED:
            original = self._meta.model.objects.filter(number=data["number"], printing=Printing.ORIGINAL).first()
            if original is None:
                raise ValidationError({"printing": f"an updated printing needs the original card {data['number']}"})
        self.row["original_id"] = original.pk if original else None
        return data

    def save(self, commit=True):
        obj = super().save(commit=False)
        row = self.row
        row["ability_text"] = loader.card_text(self.section, {**row, "expansion": obj.expansion.slug})
        for name, value in row.items():
            if name != "expansion":
                setattr(obj, name, value)
        if commit:
            obj.save()
        return obj


class DragonForm(CardForm):
    section = "dragons"

    class Meta:
        model = Dragon
        exclude = ["slug", "original", "cost_total", "ability_kind", "ability_text", "has_when_played",
                   "has_if_activated", "has_once_per_round", "has_end_game"]

    def record(self, data):
        record = {key: data.get(key) for key in ("number", "printing", "name", "vp", "size", "trait", "capacity")}
        record["expansion"] = data["expansion"].slug
        record["cost"] = {item: data.get(f"cost_{item}") or 0 for item in COST_ITEMS if data.get(f"cost_{item}")}
        record["habitats"] = [cave for cave in CAVES if data.get(cave)]
        if data.get("feeds_on"):
            record["feeds_on"] = data["feeds_on"]
        if data.get("training"):
            record["training"] = data["training"]
        if data.get("free_if") is not None:
            record["free_if"] = data["free_if"]
        record["abilities"] = data.get("abilities") if data.get("abilities") is not None else []
        return record


class CaveCardForm(CardForm):
    section = "caves"

    class Meta:
        model = CaveCard
        exclude = ["slug", "original", "ability_kind", "ability_text"]

    def record(self, data):
        return {"number": data.get("number"), "printing": data.get("printing"), "expansion": data["expansion"].slug,
                "abilities": data.get("abilities") if data.get("abilities") is not None else []}


def _check_json(check, value, field_name):
    try:
        check(value, field_name)
    except EffectSchemaError as exc:
        raise ValidationError(str(exc)) from None


class RenderedTextForm(forms.ModelForm):
    """A row whose `text` is rendered from its data on every save, never typed in."""

    def save(self, commit=True):
        obj = super().save(commit=False)
        obj.text = self.rendered_text(obj)
        if commit:
            obj.save()
        return obj


class GuildAbilityForm(RenderedTextForm):
    class Meta:
        model = GuildAbility
        exclude = ["text"]

    def clean_effect(self):
        effect = self.cleaned_data["effect"]
        _check_json(validate, effect, "effect")
        return effect

    @staticmethod
    def rendered_text(obj):
        return loader.effect_text(obj.effect)


class ObjectiveSideForm(RenderedTextForm):
    class Meta:
        model = ObjectiveSide
        exclude = ["text"]

    def clean_counts(self):
        counts = self.cleaned_data["counts"]
        _check_json(check_counter, counts, "counts")
        return counts

    @staticmethod
    def rendered_text(obj):
        return loader.counter_text(obj.counts)


class BoardFactForm(forms.ModelForm):
    class Meta:
        model = BoardFact
        fields = ["key", "value", "complete", "notes"]

    def clean_value(self):
        value = self.cleaned_data["value"]
        try:
            loader.check_effects_inside(value, "value")
        except loader.RecordError as bad:
            raise ValidationError(f"{bad.field}: {bad}") from None
        return value


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A .json file in the fixture schema or a .csv file (columns in docs/catalogue.md).")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        raw = upload.read()
        try:
            self.batch = loader.read_upload(upload.name, raw)
        except loader.CatalogueError as exc:
            raise ValidationError(str(exc)) from None
        return upload


@admin.register(Expansion)
class ExpansionAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "complete"]
    search_fields = ["slug", "name", "notes"]


@admin.register(Dragon)
class DragonAdmin(admin.ModelAdmin):
    form = DragonForm
    change_list_template = "admin/cardsite/dragon/change_list.html"
    list_display = ["number", "name", "printing", "expansion", "vp", "size", "trait", "capacity", "cost_total",
                    "ability_kind"]
    list_display_links = ["number", "name"]
    list_filter = ["expansion", "printing", "size", "trait", "ability_kind", "capacity", "crimson_cavern",
                   "golden_grotto", "amethyst_abyss", "has_when_played", "has_if_activated", "has_once_per_round",
                   "has_end_game", "feeds_on"]
    search_fields = ["name", "=number", "ability_text"]
    readonly_fields = ["slug", "original", "cost_total", "ability_kind", "ability_text", "has_when_played",
                       "has_if_activated", "has_once_per_round", "has_end_game", "updated_at"]
    fieldsets = [
        (None, {"fields": ["number", "printing", "name", "expansion", "original", "slug"]}),
        ("Facts", {"fields": ["vp", "size", "trait", "capacity", tuple(CAVES)]}),
        ("Cost", {"fields": [tuple(f"cost_{item}" for item in COST_ITEMS), "cost_total", "free_if"]}),
        ("Abilities", {"fields": ["abilities", "feeds_on", "training", "ability_text", "ability_kind",
                                  ("has_when_played", "has_if_activated", "has_once_per_round", "has_end_game")]}),
        (None, {"fields": ["updated_at"]}),
    ]
    actions = ["export_selected"]

    def get_urls(self):
        urls = [
            path("import/", self.admin_site.admin_view(self.import_view), name="cardsite_catalogue_import"),
            path("export/", self.admin_site.admin_view(self.export_view), name="cardsite_catalogue_export"),
        ]
        return urls + super().get_urls()

    def import_view(self, request):
        if not self.has_change_permission(request) or not self.has_add_permission(request):
            return HttpResponse("You may not change the catalogue.", status=403)
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                counts, warnings = loader.import_batch(form.batch)
            except loader.CatalogueError as exc:
                form.add_error("file", str(exc))
            else:
                messages.success(request, f"Imported {form.cleaned_data['file'].name}: {counts.summary()}.")
                for warning in warnings:
                    messages.warning(request, warning)
                return redirect(reverse("admin:cardsite_dragon_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "title": "Import cards from a JSON or CSV file",
        }
        return TemplateResponse(request, "admin/cardsite/import.html", context, status=400 if form.errors else 200)

    def export_view(self, request):
        # The export holds every table of the catalogue: being staff is not enough, the editor must be allowed to
        # view each of them.
        if not request.user.has_perms(EXPORT_PERMISSIONS):
            return HttpResponse("You may not view the whole catalogue.", status=403)
        response = HttpResponse(json.dumps(loader.export_catalogue(), ensure_ascii=False, indent=1),
                                content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="wyrmdex-catalogue.json"'
        return response

    @admin.action(description="Export the selected dragons as JSON", permissions=["view"])
    def export_selected(self, request, queryset):
        data = {"dragons": [loader.record_of("dragons", {**{f.attname: getattr(d, f.attname)
                                                              for f in Dragon._meta.concrete_fields},
                                                           "expansion": d.expansion.slug})
                            for d in queryset.select_related("expansion")]}
        response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="dragons.json"'
        return response


@admin.register(CaveCard)
class CaveCardAdmin(admin.ModelAdmin):
    form = CaveCardForm
    list_display = ["number", "printing", "expansion", "ability_kind", "ability_text"]
    list_filter = ["expansion", "printing", "ability_kind"]
    search_fields = ["=number", "ability_text"]
    readonly_fields = ["slug", "original", "ability_kind", "ability_text", "updated_at"]


class GuildAbilityInline(admin.TabularInline):
    model = GuildAbility
    form = GuildAbilityForm
    extra = 0
    readonly_fields = ["text"]


@admin.register(GuildTile)
class GuildTileAdmin(admin.ModelAdmin):
    list_display = ["name", "number", "expansion", "complete"]
    list_filter = ["expansion", "complete"]
    search_fields = ["name", "notes", "guild_abilities__text"]
    readonly_fields = ["slug", "updated_at"]
    inlines = [GuildAbilityInline]

    def save_model(self, request, obj, form, change):
        obj.slug = slugify(obj.name)  # as the loader names it
        super().save_model(request, obj, form, change)


class ObjectiveSideInline(admin.TabularInline):
    model = ObjectiveSide
    form = ObjectiveSideForm
    extra = 0
    max_num = 2
    readonly_fields = ["text"]


@admin.register(ObjectiveTile)
class ObjectiveTileAdmin(admin.ModelAdmin):
    list_display = ["number", "expansion", "complete"]
    list_filter = ["expansion", "complete"]
    search_fields = ["=number", "sides__text"]
    readonly_fields = ["slug", "updated_at"]
    inlines = [ObjectiveSideInline]

    def save_model(self, request, obj, form, change):
        obj.slug = f"{obj.expansion.slug}-objective-{obj.number}"  # as the loader names it
        super().save_model(request, obj, form, change)


@admin.register(BoardFact)
class BoardFactAdmin(admin.ModelAdmin):
    form = BoardFactForm
    list_display = ["key", "complete", "updated_at"]
    list_filter = ["complete"]
    search_fields = ["key", "notes"]
