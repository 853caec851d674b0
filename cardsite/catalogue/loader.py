"""Read, validate and write the catalogue: fixtures/*.json in, database rows out, all or nothing.

The same code serves `load_catalogue` (the whole fixtures folder), `import_catalogue` and the admin upload (one
JSON or CSV file of errata or fan cards) and `export_catalogue` (the database back into the fixture schema).
Every record is checked, facts and effects alike, before anything is written; a bad record raises
`CatalogueError` naming the file, the record and the field, and the database is left as it was.
"""
import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from game.language import render
from game.language.schema import (
    PRINTED_KINDS,
    EffectSchemaError,
    check_cond,
    check_counter,
    validate,
    validate_abilities,
)
from game.language.vocabulary import COST_ITEMS as PAYABLE, FEEDS_ON

from . import catalogue_version
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
    Size,
    Trait,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SECTIONS = ("expansions", "dragons", "caves", "guild_tiles", "objective_tiles", "board_facts")
OPTIONAL_FILES = ("guild-tiles.json", "objective-tiles.json", "board.json")
TRAINING_ITEMS = tuple(item for item in PAYABLE if item != "tithe")  # a training box holds one cost item

DRAGON_KEYS = {"number", "printing", "name", "expansion", "vp", "size", "trait", "capacity", "cost", "habitats",
               "abilities", "feeds_on", "training", "free_if"}
DRAGON_REQUIRED = DRAGON_KEYS - {"feeds_on", "training", "free_if"}
CAVE_KEYS = {"number", "printing", "expansion", "abilities"}
EXPANSION_KEYS = {"slug", "name", "complete", "notes"}
GUILD_KEYS = {"number", "name", "expansion", "complete", "notes", "rows"}
GUILD_ROW_KEYS = {"position", "squares", "end_game", "effect"}
OBJECTIVE_KEYS = {"number", "expansion", "complete", "sides"}
OBJECTIVE_SIDE_KEYS = {"counts", "automa_values"}
BOARD_KEYS = {"key", "value", "complete", "notes"}

# CSV: one record per row; these columns hold JSON, the rest are plain values. See docs/catalogue.md.
CSV_DRAGON_COLUMNS = ("number", "printing", "name", "expansion", "vp", "size", "trait", "capacity",
                      *(f"cost_{item}" for item in COST_ITEMS), "habitats", "feeds_on", "training", "free_if",
                      "abilities")
CSV_CAVE_COLUMNS = ("number", "printing", "expansion", "abilities")
CSV_JSON_COLUMNS = {"training", "free_if", "abilities"}


class CatalogueError(ValueError):
    """One or more bad records; each message names the file, the record and the field."""

    def __init__(self, problems):
        self.problems = list(problems)
        shown = self.problems[:20]
        more = len(self.problems) - len(shown)
        super().__init__("\n".join(shown) + (f"\n... and {more} more" if more > 0 else ""))


class RecordError(Exception):
    """A single problem inside one record, before the file and record names are added."""

    def __init__(self, field_name, message):
        self.field = field_name
        super().__init__(message)


# ---------------------------------------------------------------- checking one record


def _whole(value, field_name, minimum=0):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(field_name, f"expected a whole number, not {value!r}")
    if value < minimum:
        raise RecordError(field_name, f"must be {minimum} or more, not {value}")
    return value


def _choice(value, allowed, field_name):
    if value not in allowed:
        raise RecordError(field_name, f"{value!r} is not one of {', '.join(allowed)}")
    return value


def _text(value, field_name, max_length, blank=False):
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise RecordError(field_name, "expected some text" if not blank else "expected text")
    if len(value) > max_length:
        raise RecordError(field_name, f"is longer than {max_length} characters")
    return value.strip() if not blank else value


def _bool(value, field_name):
    if not isinstance(value, bool):
        raise RecordError(field_name, "expected true or false")
    return value


def _keys(record, allowed, required):
    if not isinstance(record, dict):
        raise RecordError("record", "expected an object")
    unknown = sorted(set(record) - allowed)
    if unknown:
        raise RecordError(unknown[0], f"unknown field; known: {', '.join(sorted(allowed))}")
    missing = sorted(required - set(record))
    if missing:
        raise RecordError(missing[0], "is missing")


def _effect_check(check, value, field_name):
    try:
        check(value, field_name)
    except EffectSchemaError as exc:
        raise RecordError(exc.path, str(exc)[len(exc.path) + 2:]) from None


def derive_kinds(abilities, size=None):
    """The has_* flags and the primary ability kind a player searches by."""
    kinds = [a["kind"] for a in abilities if a.get("kind") in PRINTED_KINDS]
    flags = {f"has_{kind}": kind in kinds for kind in PRINTED_KINDS}
    if size == Size.HATCHLING and "if_activated" in kinds:
        primary = "if_activated"  # the feed and grow-up parts hang off the if-activated part
    else:
        primary = kinds[0] if kinds else ""
    return flags, primary


def clean_dragon(rec):
    _keys(rec, DRAGON_KEYS, DRAGON_REQUIRED)
    row = {
        "number": _whole(rec["number"], "number", 1),
        "printing": _choice(rec["printing"], Printing.values, "printing"),
        "name": _text(rec["name"], "name", 80),
        "expansion": rec["expansion"],
        "vp": _whole(rec["vp"], "vp"),
        "size": _choice(rec["size"], Size.values, "size"),
        "trait": _choice(rec["trait"], Trait.values, "trait"),
        "capacity": _whole(rec["capacity"], "capacity"),
    }
    cost = rec["cost"]
    if not isinstance(cost, dict):
        raise RecordError("cost", 'expected an object such as {"meat": 1, "coin": 1}')
    for item, count in cost.items():
        _choice(item, COST_ITEMS, "cost")
        _whole(count, f"cost.{item}")
    for item in COST_ITEMS:
        row[f"cost_{item}"] = cost.get(item, 0)
    row["cost_total"] = sum(cost.values())
    habitats = rec["habitats"]
    if not isinstance(habitats, list) or not habitats:
        raise RecordError("habitats", f"expected a non-empty list of caves: {', '.join(CAVES)}")
    for cave in habitats:
        _choice(cave, CAVES, "habitats")
    if len(set(habitats)) != len(habitats):
        raise RecordError("habitats", "names a cave twice")
    for cave in CAVES:
        row[cave] = cave in habitats

    feeds_on = rec.get("feeds_on", "")
    if row["size"] == Size.HATCHLING:
        row["feeds_on"] = _choice(feeds_on, FEEDS_ON, "feeds_on")
    elif feeds_on:
        raise RecordError("feeds_on", "only hatchlings are fed")
    else:
        row["feeds_on"] = ""
    training = rec.get("training", [])
    if row["size"] == Size.FLEDGLING:
        if not isinstance(training, list) or not training:
            raise RecordError("training", "a fledgling needs its training boxes, left to right")
        for i, item in enumerate(training):
            _choice(item, TRAINING_ITEMS, f"training[{i}]")
    elif training:
        raise RecordError("training", "only fledglings have training boxes")
    row["training"] = training
    free_if = rec.get("free_if")
    if free_if is not None:
        _effect_check(check_cond, free_if, "free_if")
    row["free_if"] = free_if

    abilities = rec["abilities"]
    _effect_check(validate_abilities, abilities, "abilities")
    for i, ability in enumerate(abilities):
        if ability["kind"] in ("on_feed", "on_grow_up") and row["size"] != Size.HATCHLING:
            raise RecordError(f"abilities[{i}].kind", f"only hatchlings have an {ability['kind']} ability")
    row["abilities"] = abilities
    flags, row["ability_kind"] = derive_kinds(abilities, row["size"])
    row.update(flags)
    row["slug"] = dragon_slug(row)
    return row


def dragon_slug(record):
    """A dragon's slug, from its number, name and printing (so anything holding the record can name its page)."""
    return slugify(f"{record['number']}-{record['name']}") + (
        "-updated" if record["printing"] == Printing.UPDATED else "")


def clean_cave(rec):
    _keys(rec, CAVE_KEYS, CAVE_KEYS)
    row = {
        "number": _whole(rec["number"], "number", 1),
        "printing": _choice(rec["printing"], Printing.values, "printing"),
        "expansion": rec["expansion"],
    }
    _effect_check(validate_abilities, rec["abilities"], "abilities")
    for i, ability in enumerate(rec["abilities"]):
        if ability["kind"] not in PRINTED_KINDS:
            raise RecordError(f"abilities[{i}].kind", "a cave card has no hatchling ability")
    row["abilities"] = rec["abilities"]
    row["ability_kind"] = derive_kinds(rec["abilities"])[1]
    row["slug"] = f"cave-{row['number']}" + ("-updated" if row["printing"] == Printing.UPDATED else "")
    return row


def clean_expansion(rec):
    _keys(rec, EXPANSION_KEYS, {"slug", "name"})
    slug = rec["slug"]
    if not isinstance(slug, str) or not re.fullmatch(r"[-a-z0-9_]+", slug):
        raise RecordError("slug", "expected a short lower-case word such as 'base'")
    return {
        "slug": slug,
        "name": _text(rec["name"], "name", 80),
        "complete": _bool(rec.get("complete", True), "complete"),
        "notes": _text(rec.get("notes", ""), "notes", 10_000, blank=True),
    }


def clean_guild_tile(rec):
    _keys(rec, GUILD_KEYS, {"number", "name", "expansion", "rows"})
    row = {
        "number": _whole(rec["number"], "number", 1),
        "name": _text(rec["name"], "name", 80),
        "expansion": rec["expansion"],
        "complete": _bool(rec.get("complete", True), "complete"),
        "notes": _text(rec.get("notes", ""), "notes", 10_000, blank=True),
    }
    row["slug"] = slugify(row["name"])
    rows = rec["rows"]
    if not isinstance(rows, list):
        raise RecordError("rows", "expected a list of rows")
    cleaned, seen = [], set()
    for i, guild_row in enumerate(rows):
        where = f"rows[{i}]"
        if not isinstance(guild_row, dict):
            raise RecordError(where, "expected an object")
        unknown = sorted(set(guild_row) - GUILD_ROW_KEYS)
        if unknown:
            raise RecordError(f"{where}.{unknown[0]}", f"unknown field; known: {', '.join(sorted(GUILD_ROW_KEYS))}")
        for key in ("position", "squares", "effect"):
            if key not in guild_row:
                raise RecordError(f"{where}.{key}", "is missing")
        position = _whole(guild_row["position"], f"{where}.position", 1)
        if position in seen:
            raise RecordError(f"{where}.position", f"row {position} is listed twice")
        seen.add(position)
        _effect_check(validate, guild_row["effect"], f"{where}.effect")
        cleaned.append({
            "position": position,
            "squares": _whole(guild_row["squares"], f"{where}.squares"),
            "end_game": _bool(guild_row.get("end_game", False), f"{where}.end_game"),
            "effect": guild_row["effect"],
        })
    row["rows"] = cleaned
    return row


def clean_objective_tile(rec):
    _keys(rec, OBJECTIVE_KEYS, {"number", "expansion", "sides"})
    row = {
        "number": _whole(rec["number"], "number", 1),
        "expansion": rec["expansion"],
        "complete": _bool(rec.get("complete", True), "complete"),
    }
    row["slug"] = f"{row['expansion']}-objective-{row['number']}"
    sides = rec["sides"]
    if not isinstance(sides, dict) or not sides or set(sides) - {"a", "b"}:
        raise RecordError("sides", 'expected {"a": {...}, "b": {...}}')
    cleaned = {}
    for side, data in sorted(sides.items()):
        where = f"sides.{side}"
        if not isinstance(data, dict):
            raise RecordError(where, "expected an object")
        unknown = sorted(set(data) - OBJECTIVE_SIDE_KEYS)
        if unknown:
            raise RecordError(f"{where}.{unknown[0]}", "unknown field; known: automa_values, counts")
        if "counts" not in data:
            raise RecordError(f"{where}.counts", "is missing")
        _effect_check(check_counter, data["counts"], f"{where}.counts")
        automa = data.get("automa_values", [])
        if not isinstance(automa, list):
            raise RecordError(f"{where}.automa_values", "expected a list of whole numbers")
        for i, value in enumerate(automa):
            if value is not None:
                _whole(value, f"{where}.automa_values[{i}]")
        cleaned[side] = {"counts": data["counts"], "automa_values": automa}
    row["sides"] = cleaned
    return row


def check_effects_inside(value, path):
    """Board facts are free-form, but every effect inside them must be a valid one."""
    if isinstance(value, dict):
        if "do" in value:
            _effect_check(validate, value, path)
            return
        for key, sub in value.items():
            check_effects_inside(sub, f"{path}.{key}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            check_effects_inside(sub, f"{path}[{i}]")


def clean_board_fact(rec):
    _keys(rec, BOARD_KEYS, {"key", "value"})
    key = rec["key"]
    if not isinstance(key, str) or not re.fullmatch(r"[-a-z0-9_]{1,80}", key):
        raise RecordError("key", "expected a short lower-case name such as 'guild_track'")
    check_effects_inside(rec["value"], "value")
    return {
        "key": key,
        "value": rec["value"],
        "complete": _bool(rec.get("complete", True), "complete"),
        "notes": _text(rec.get("notes", ""), "notes", 10_000, blank=True),
    }


CLEANERS = {
    "expansions": clean_expansion,
    "dragons": clean_dragon,
    "caves": clean_cave,
    "guild_tiles": clean_guild_tile,
    "objective_tiles": clean_objective_tile,
    "board_facts": clean_board_fact,
}


def _label(section, rec):
    """How a problem names its record: 'dragon 36', 'dragon 119 (updated)', 'cave 9', 'board fact guild_track'."""
    if not isinstance(rec, dict):
        return section.rstrip("s").replace("_", " ")
    names = {"dragons": "dragon", "caves": "cave", "guild_tiles": "guild tile", "objective_tiles": "objective tile",
             "expansions": "expansion", "board_facts": "board fact"}
    ident = rec.get("number", rec.get("slug", rec.get("key", "?")))
    suffix = " (updated)" if rec.get("printing") == Printing.UPDATED else ""
    return f"{names[section]} {ident}{suffix}"


# ---------------------------------------------------------------- reading files


@dataclass
class Batch:
    """Records from one or more files, each with the file it came from, and any warnings met on the way."""

    records: dict = field(default_factory=lambda: {section: [] for section in SECTIONS})
    warnings: list = field(default_factory=list)

    def add(self, source, data):
        if not isinstance(data, dict):
            raise CatalogueError([f"{source}: expected a JSON object with one or more of: {', '.join(SECTIONS)}"])
        unknown = sorted(set(data) - set(SECTIONS))
        if unknown:
            raise CatalogueError([f"{source}: unknown section {unknown[0]!r}; known: {', '.join(SECTIONS)}"])
        for section, items in data.items():
            if not isinstance(items, list):
                raise CatalogueError([f"{source}: {section}: expected a list of records"])
            self.records[section].extend((source, item) for item in items)


def read_fixtures(directory=FIXTURES):
    directory = Path(directory)
    batch = Batch()
    paths = sorted(directory.glob("*.json"))
    if not paths:
        raise CatalogueError([f"{directory}: no fixture files found"])
    for name in OPTIONAL_FILES:
        if not (directory / name).exists():
            batch.warnings.append(f"{name} is missing: loaded everything else")
    for path in paths:
        source = _display_path(path)
        raw = path.read_text(encoding="utf-8")
        data = _parse_json(raw, source)
        if isinstance(data, list) and path.name == "expansions.json":
            data = {"expansions": data}
        batch.add(source, data)
    return batch


def _display_path(path):
    try:
        return str(Path(path).resolve().relative_to(FIXTURES.parent))
    except ValueError:
        return str(path)


def _parse_json(raw, source):
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CatalogueError([f"{source}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"]) from None


def read_upload(name, raw):
    """One uploaded JSON or CSV file (bytes or text) as a batch; the kind is taken from the name's ending."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CatalogueError([f"{name}: the file is not UTF-8 text"]) from None
    batch = Batch()
    lower = name.lower()
    if lower.endswith(".json"):
        data = _parse_json(raw, name)
        if isinstance(data, list):
            raise CatalogueError([f"{name}: expected a JSON object such as {{\"dragons\": [...]}}, not a bare list"])
        batch.add(name, data)
    elif lower.endswith(".csv"):
        batch.add(name, _read_csv(name, raw))
    else:
        raise CatalogueError([f"{name}: only .json and .csv files can be imported"])
    return batch


def _read_csv(name, raw):
    reader = csv.DictReader(io.StringIO(raw))
    header = reader.fieldnames or []
    if set(header) >= {"name", "size"} or "vp" in header:
        section, columns = "dragons", CSV_DRAGON_COLUMNS
    else:
        section, columns = "caves", CSV_CAVE_COLUMNS
    missing = [column for column in columns if column not in header]
    if missing:
        raise CatalogueError([f"{name}: missing column {missing[0]!r}; a {section[:-1]} file needs: {', '.join(columns)}"])
    unknown = [column for column in header if column not in columns]
    if unknown:
        raise CatalogueError([f"{name}: unknown column {unknown[0]!r}; a {section[:-1]} file takes: {', '.join(columns)}"])
    records, problems = [], []
    for line, row in enumerate(reader, start=2):
        try:
            records.append(_csv_record(section, row))
        except RecordError as bad:
            problems.append(f"{name}: line {line}: {bad.field}: {bad}")
    if problems:
        raise CatalogueError(problems)
    return {section: records}


def _csv_value(column, text):
    text = (text or "").strip()
    if column in CSV_JSON_COLUMNS:
        if not text:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(column, f"not valid JSON: {exc.msg}") from None
    if column in ("number", "vp", "capacity") or column.startswith("cost_"):
        if not text:
            return 0 if column.startswith("cost_") else None
        try:
            return int(text)
        except ValueError:
            raise RecordError(column, f"expected a whole number, not {text!r}") from None
    return text


def _csv_record(section, row):
    values = {column: _csv_value(column, row.get(column)) for column in row}
    record = {"number": values["number"], "printing": values["printing"] or Printing.ORIGINAL,
              "expansion": values["expansion"]}
    if section == "dragons":
        record.update({key: values[key] for key in ("name", "vp", "size", "trait", "capacity")})
        record["cost"] = {item: values[f"cost_{item}"] for item in COST_ITEMS if values[f"cost_{item}"]}
        record["habitats"] = [cave.strip() for cave in (values["habitats"] or "").split(",") if cave.strip()]
        if values["feeds_on"]:
            record["feeds_on"] = values["feeds_on"]
        if values["training"] is not None:
            record["training"] = values["training"]
        if values["free_if"] is not None:
            record["free_if"] = values["free_if"]
    record["abilities"] = values["abilities"] if values["abilities"] is not None else []
    return record


# ---------------------------------------------------------------- validating a whole batch


@dataclass
class Checked:
    rows: dict
    warnings: list


def check(batch, known_expansions=(), known_originals=None):
    """Clean every record; collect every problem; raise CatalogueError if there is any. Nothing is written here.

    `known_expansions` and `known_originals` are what the database already holds, for imports of a few records.
    """
    problems = []
    rows = {section: [] for section in SECTIONS}
    for section, items in batch.records.items():
        for source, rec in items:
            try:
                row = CLEANERS[section](rec)
            except RecordError as bad:
                problems.append(f"{source}: {_label(section, rec)}: {bad.field}: {bad}")
                continue
            rows[section].append((source, row))

    expansions = set(known_expansions) | {row["slug"] for _, row in rows["expansions"]}
    for section, key_of in (
        ("expansions", lambda r: r["slug"]),
        ("dragons", lambda r: (r["number"], r["printing"])),
        ("caves", lambda r: (r["number"], r["printing"])),
        ("guild_tiles", lambda r: (r["expansion"], r["number"])),
        ("objective_tiles", lambda r: (r["expansion"], r["number"])),
        ("board_facts", lambda r: r["key"]),
    ):
        seen = {}
        for source, row in rows[section]:
            label = _label(section, row)
            key = key_of(row)
            if key in seen:
                field_name = "number" if "number" in row else ("slug" if section == "expansions" else "key")
                problems.append(f"{source}: {label}: {field_name}: listed twice (also in {seen[key]})")
            seen[key] = source
            if "expansion" in row and row["expansion"] not in expansions:
                problems.append(f"{source}: {label}: expansion: {row['expansion']!r} is not a known expansion; "
                                f"known: {', '.join(sorted(expansions))}")
    for section in ("dragons", "caves"):
        originals = {row["number"] for _, row in rows[section] if row["printing"] == Printing.ORIGINAL}
        originals |= set((known_originals or {}).get(section, ()))
        for source, row in rows[section]:
            if row["printing"] == Printing.UPDATED and row["number"] not in originals:
                problems.append(f"{source}: {_label(section, row)}: printing: an updated printing needs the "
                                f"original card {row['number']}, which is not in the catalogue")
    for slug_section in ("dragons", "guild_tiles", "objective_tiles"):
        seen = {}
        for source, row in rows[slug_section]:
            if row["slug"] in seen and seen[row["slug"]] != (source, row.get("number")):
                problems.append(f"{source}: {_label(slug_section, row)}: name: gives the same web address "
                                f"{row['slug']!r} as another record")
            seen[row["slug"]] = (source, row.get("number"))
    if problems:
        raise CatalogueError(problems)
    _render_all(rows, batch.warnings)
    return Checked(rows=rows, warnings=batch.warnings)


def _render_all(rows, warnings):
    """Fill the text fields from the effects. The schema is the validator: a renderer failure is a warning naming
    the card (its text stays empty), so a renderer bug never keeps the catalogue from loading."""
    def text(source, section, row, function, value, **kwargs):
        try:
            return getattr(render, function)(value, **kwargs)
        except Exception as exc:  # any renderer bug: name the card, keep loading
            warnings.append(f"{source}: {_label(section, row)}: text could not be rendered: {exc}")
            return ""

    for section, items in rows.items():
        for source, row in items:
            if section in ("dragons", "caves"):
                row["ability_text"] = text(source, section, row, "render_abilities", row["abilities"],
                                           card=record_of(section, row))
            elif section == "guild_tiles":
                for guild_row in row["rows"]:
                    guild_row["text"] = text(source, section, row, "render_effect", guild_row["effect"])
            elif section == "objective_tiles":
                for side in row["sides"].values():
                    side["text"] = text(source, section, row, "render_counter", side["counts"])


def _quiet_render(function, *args, **kwargs):
    """Rendered text for a single admin save, or "" when the renderer fails (the loader reports that)."""
    try:
        return getattr(render, function)(*args, **kwargs)
    except Exception:
        return ""


def card_text(section, row):
    return _quiet_render("render_abilities", row["abilities"], card=record_of(section, row))


def effect_text(effect):
    return _quiet_render("render_effect", effect)


def counter_text(counter):
    return _quiet_render("render_counter", counter)


# ---------------------------------------------------------------- writing


@dataclass
class Counts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    per_section: dict = field(default_factory=dict)

    def add(self, section, created=0, updated=0, unchanged=0, deleted=0):
        mine = self.per_section.setdefault(section, {"created": 0, "updated": 0, "unchanged": 0, "deleted": 0})
        for name, value in (("created", created), ("updated", updated), ("unchanged", unchanged), ("deleted", deleted)):
            mine[name] += value
            setattr(self, name, getattr(self, name) + value)

    def summary(self):
        return f"{self.created} created, {self.updated} updated, {self.unchanged} unchanged, {self.deleted} deleted"


def _upsert(model, key_fields, new_rows, counts, section, prune=False):
    """Create missing rows and update changed ones in bulk; return key -> instance for every row given."""
    existing = {tuple(getattr(obj, f) for f in key_fields): obj for obj in model.objects.all()}
    to_create, to_update, changed_fields = [], [], set()
    now = timezone.now()
    result = {}
    for values in new_rows:
        key = tuple(values[f] for f in key_fields)
        obj = existing.get(key)
        if obj is None:
            obj = model(**values)
            to_create.append(obj)
        else:
            diff = [name for name, value in values.items() if getattr(obj, name) != value]
            if diff:
                for name in diff:
                    setattr(obj, name, values[name])
                changed_fields.update(diff)
                if hasattr(obj, "updated_at"):
                    obj.updated_at = now
                    changed_fields.add("updated_at")
                to_update.append(obj)
        result[key] = obj
    if to_create:
        model.objects.bulk_create(to_create, batch_size=500)
    if to_update:
        model.objects.bulk_update(to_update, sorted(changed_fields), batch_size=500)
    deleted = 0
    if prune:
        gone = [obj.pk for key, obj in existing.items() if key not in result]
        if gone:
            deleted = model.objects.filter(pk__in=gone).delete()[1].get(model._meta.label, 0)
    counts.add(section, created=len(to_create), updated=len(to_update),
               unchanged=len(new_rows) - len(to_create) - len(to_update), deleted=deleted)
    if to_create and any(obj.pk is None for obj in to_create):
        # Back-ends that do not return keys from a bulk insert: read them back.
        fresh = {tuple(getattr(obj, f) for f in key_fields): obj for obj in model.objects.all()}
        result = {key: fresh[key] for key in result}
    return result


def _card_rows(section, rows, expansion_ids, original_ids=None):
    out = []
    for _, row in rows:
        values = {k: v for k, v in row.items() if k != "expansion"}
        values["expansion_id"] = expansion_ids[row["expansion"]]
        if original_ids is not None:
            values["original_id"] = (original_ids[row["number"]] if row["printing"] == Printing.UPDATED else None)
        out.append(values)
    return out


def write(checked, prune=False):
    """Write checked rows in one transaction; return the counts. With prune, rows absent from the batch go."""
    try:
        return _write(checked.rows, prune)
    except IntegrityError as exc:
        raise CatalogueError([f"the database refused the records: {exc}"]) from None


def _write(rows, prune):
    counts = Counts()
    with transaction.atomic():
        _upsert(Expansion, ("slug",), [row for _, row in rows["expansions"]], counts, "expansions", prune=False)
        expansion_ids = dict(Expansion.objects.values_list("slug", "id"))
        for section, model in (("dragons", Dragon), ("caves", CaveCard)):
            items = rows[section]
            originals = [item for item in items if item[1]["printing"] == Printing.ORIGINAL]
            updated = [item for item in items if item[1]["printing"] == Printing.UPDATED]
            originals_rows = _card_rows(section, originals, expansion_ids, original_ids={})
            _upsert(model, ("number", "printing"), originals_rows, counts, section)
            original_ids = dict(model.objects.filter(printing=Printing.ORIGINAL).values_list("number", "id"))
            _upsert(model, ("number", "printing"), _card_rows(section, updated, expansion_ids, original_ids), counts,
                    section)
            if prune:
                keep = {(row["number"], row["printing"]) for _, row in items}
                gone = [pk for pk, number, printing in model.objects.values_list("pk", "number", "printing")
                        if (number, printing) not in keep]
                if gone:
                    counts.add(section, deleted=model.objects.filter(pk__in=gone).delete()[1].get(model._meta.label, 0))
        _write_guild_tiles(rows["guild_tiles"], expansion_ids, counts, prune)
        _write_objective_tiles(rows["objective_tiles"], expansion_ids, counts, prune)
        _upsert(BoardFact, ("key",), [row for _, row in rows["board_facts"]], counts, "board_facts", prune=prune)
        if counts.created or counts.updated or counts.deleted:
            catalogue_version.bump()  # bulk writes send no signals
    return counts


def _write_guild_tiles(items, expansion_ids, counts, prune):
    tiles = []
    for _, row in items:
        tiles.append({k: v for k, v in row.items() if k not in ("expansion", "rows")}
                     | {"expansion_id": expansion_ids[row["expansion"]]})
    saved = _upsert(GuildTile, ("expansion_id", "number"), tiles, counts, "guild_tiles", prune=prune)
    abilities = []
    for _, row in items:
        tile = saved[(expansion_ids[row["expansion"]], row["number"])]
        abilities.extend(guild_row | {"tile_id": tile.pk} for guild_row in row["rows"])
    _upsert(GuildAbility, ("tile_id", "position"), abilities, counts, "guild_rows")
    keep = {(a["tile_id"], a["position"]) for a in abilities}
    tile_ids = {a["tile_id"] for a in abilities} | {saved[key].pk for key in saved}
    gone = [pk for pk, tile_id, position in GuildAbility.objects.filter(tile_id__in=tile_ids)
            .values_list("pk", "tile_id", "position") if (tile_id, position) not in keep]
    if gone:
        counts.add("guild_rows", deleted=GuildAbility.objects.filter(pk__in=gone).delete()[0])


def _write_objective_tiles(items, expansion_ids, counts, prune):
    tiles = []
    for _, row in items:
        tiles.append({k: v for k, v in row.items() if k not in ("expansion", "sides")}
                     | {"expansion_id": expansion_ids[row["expansion"]]})
    saved = _upsert(ObjectiveTile, ("expansion_id", "number"), tiles, counts, "objective_tiles", prune=prune)
    sides = []
    for _, row in items:
        tile = saved[(expansion_ids[row["expansion"]], row["number"])]
        sides.extend(data | {"side": side, "tile_id": tile.pk} for side, data in row["sides"].items())
    _upsert(ObjectiveSide, ("tile_id", "side"), sides, counts, "objective_sides")
    keep = {(s["tile_id"], s["side"]) for s in sides}
    gone = [pk for pk, tile_id, side in ObjectiveSide.objects.filter(tile_id__in={s["tile_id"] for s in sides})
            .values_list("pk", "tile_id", "side") if (tile_id, side) not in keep]
    if gone:
        counts.add("objective_sides", deleted=ObjectiveSide.objects.filter(pk__in=gone).delete()[0])


# ---------------------------------------------------------------- the three entry points


def load_fixtures(directory=FIXTURES, prune=False):
    """Check the whole fixtures folder, then write it; returns (counts, warnings)."""
    checked = check(read_fixtures(directory))
    return write(checked, prune=prune), checked.warnings


def import_batch(batch):
    """Check a batch of errata or fan cards against what the database already holds, then write it."""
    known_originals = {
        "dragons": Dragon.objects.filter(printing=Printing.ORIGINAL).values_list("number", flat=True),
        "caves": CaveCard.objects.filter(printing=Printing.ORIGINAL).values_list("number", flat=True),
    }
    checked = check(batch, known_expansions=Expansion.objects.values_list("slug", flat=True),
                    known_originals=known_originals)
    return write(checked), checked.warnings


def import_file(name, raw):
    return import_batch(read_upload(name, raw))


def record_of(section, row):
    """A cleaned row (or a model instance's values) back in the fixture schema, keys in a stable order."""
    if section == "caves":
        return {"number": row["number"], "printing": row["printing"], "expansion": row["expansion"],
                "abilities": row["abilities"]}
    record = {key: row[key] for key in ("number", "printing", "name", "expansion", "vp", "size", "trait", "capacity")}
    record["cost"] = {item: row[f"cost_{item}"] for item in COST_ITEMS if row[f"cost_{item}"]}
    record["habitats"] = [cave for cave in CAVES if row[cave]]
    if row["feeds_on"]:
        record["feeds_on"] = row["feeds_on"]
    if row["training"]:
        record["training"] = row["training"]
    if row["free_if"] is not None:
        record["free_if"] = row["free_if"]
    record["abilities"] = row["abilities"]
    return record


def export_catalogue():
    """The whole database in the fixture schema, as one JSON-ready object."""
    def card_rows(model):
        for obj in model.objects.select_related("expansion").order_by("number", "printing"):
            values = {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields}
            values["expansion"] = obj.expansion.slug
            yield values

    data = {
        "expansions": [
            {"slug": e.slug, "name": e.name, "complete": e.complete, "notes": e.notes}
            for e in Expansion.objects.order_by("id")
        ],
        "dragons": [record_of("dragons", values) for values in card_rows(Dragon)],
        "caves": [record_of("caves", values) for values in card_rows(CaveCard)],
        "guild_tiles": [
            {"number": t.number, "name": t.name, "expansion": t.expansion.slug, "complete": t.complete, "notes": t.notes,
             "rows": [{"position": a.position, "squares": a.squares, "end_game": a.end_game, "effect": a.effect}
                      for a in t.guild_abilities.order_by("position")]}
            for t in GuildTile.objects.select_related("expansion").prefetch_related("guild_abilities")
        ],
        "objective_tiles": [
            {"number": t.number, "expansion": t.expansion.slug, "complete": t.complete,
             "sides": {s.side: {"counts": s.counts, "automa_values": s.automa_values} for s in t.sides.order_by("side")}}
            for t in ObjectiveTile.objects.select_related("expansion").prefetch_related("sides")
        ],
        "board_facts": [
            {"key": b.key, "value": b.value, "complete": b.complete, "notes": b.notes}
            for b in BoardFact.objects.order_by("key")
        ],
    }
    return data
