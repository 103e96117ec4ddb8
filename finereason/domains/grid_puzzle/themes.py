"""Themes for generated logic-grid puzzles: a story, a numeric key category and four named categories.

Glossary:
- *key category*: the first column (times, prices, lengths...): integers ``start, start + step, ...``.
  Its templates take ``{k}``, the value as the story writes it ("9:00am", "$125", "March").
- *named category*: a column of words (names, ailments, insurers...), at least seven values, so a
  puzzle of up to six entries can still pick a random subset. Its templates take ``{v}``.
- Templates: ``ref`` names the entity that has a value ("the patient with Triflex insurance"),
  ``pred`` says that an entity has it ("has Triflex insurance"; its subject may be "one" or
  "the other"), ``neg`` denies it ("doesn't have Triflex insurance").
- Key relations: ``less``/``more`` take ``{a}``, ``{b}`` and ``{d}`` (the difference, written with
  ``diff``), ``sooner``/``later`` take ``{a}`` and ``{b}`` ("sometime before").

Values never contain quotes, backslashes or commas, never end with a period and never look like
numbers, so they survive the ``conditions`` grammar and the ``categories`` line unchanged; within a
theme they are distinct, even ignoring case.
"""
from __future__ import annotations

from dataclasses import dataclass

_HOURS = {12: "12 noon"}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@dataclass(frozen=True)
class KeyCategory:
    name: str
    kind: str                   # how a value is written: clock, money, month, year, ordinal, plain
    starts: tuple[int, ...]     # possible first values
    steps: tuple[int, ...]      # possible gaps between consecutive values
    ref: str
    pred: str
    neg: str
    less: str                   # a's key is b's key minus d
    more: str                   # a's key is b's key plus d
    sooner: str                 # a's key is smaller than b's
    later: str                  # a's key is larger than b's
    diff: tuple[str, str]       # the difference {n}, singular and plural
    maximum: int | None = None  # largest value allowed (months stop at 12)

    def label(self, value: int) -> str:
        """The value as the clues write it."""
        if self.kind == "clock":
            if value in _HOURS:
                return _HOURS[value]
            return f"{value}:00am" if value < 12 else f"{value - 12}:00pm"
        if self.kind == "money":
            return f"${value}"
        if self.kind == "month":
            return _MONTHS[value - 1]
        if self.kind == "ordinal":
            return _ORDINALS[value - 1]
        return str(value)

    def difference(self, amount: int) -> str:
        return (self.diff[0] if amount == 1 else self.diff[1]).format(n=amount)


@dataclass(frozen=True)
class Category:
    name: str
    values: tuple[str, ...]
    ref: str
    pred: str
    neg: str


@dataclass(frozen=True)
class Theme:
    stories: tuple[str, ...]    # a sentence or two before "Using only the clues below, ..."
    noun: str                   # plural noun for "three different ___" and "The four ___ are ..."
    key: KeyCategory
    categories: tuple[Category, ...]


def _people(name: str, values: str) -> Category:
    return Category(name, tuple(values.split(", ")), "{v}", "is {v}", "isn't {v}")


THEMES: tuple[Theme, ...] = (
    Theme(
        stories=(
            "Help Donna make sense of Dr. Finklestein's appointment list for today.",
            "The front desk at Maple Street Clinic mixed up this morning's schedule.",
        ),
        noun="patients",
        key=KeyCategory(
            "times", "clock", (8, 9), (1,),
            ref="the patient with the {k} appointment", pred="has the {k} appointment",
            neg="doesn't have the {k} appointment",
            less="{a} has an appointment {d} before {b}", more="{a} has an appointment {d} after {b}",
            sooner="{a} has an appointment sometime before {b}", later="{a} has an appointment sometime after {b}",
            diff=("{n} hour", "{n} hours"),
        ),
        categories=(
            _people("names", "Billy, Guy, Paul, Terry, Hazel, Nora, Edgar, Wanda"),
            Category("ailments", ("back pain", "hip pain", "shingles", "vertigo", "migraines", "sinusitis", "tennis elbow"),
                     "the patient suffering from {v}", "is suffering from {v}", "isn't suffering from {v}"),
            Category("insurers", ("Ambercare", "HealthCo", "Lifealign", "Triflex", "MediPlus", "Carewell", "Northwind"),
                     "the patient with {v} insurance", "has {v} insurance", "doesn't have {v} insurance"),
            Category("doctors", ("Alvarez", "Brennan", "Chu", "Dawson", "Ellison", "Fischer", "Gupta"),
                     "the patient seeing Dr. {v}", "is seeing Dr. {v}", "isn't seeing Dr. {v}"),
        ),
    ),
    Theme(
        stories=(
            "Steve, a herpetologist, brought a small collection of snakes to Brunhilde High School for a class demonstration.",
            "The reptile house at the Oakdale Zoo has just received several new snakes.",
        ),
        noun="snakes",
        key=KeyCategory(
            "lengths", "plain", (12, 18, 24), (6,),
            ref="the {k}-inch snake", pred="is {k} inches long", neg="isn't {k} inches long",
            less="{a} is {d} shorter than {b}", more="{a} is {d} longer than {b}",
            sooner="{a} is shorter than {b}", later="{a} is longer than {b}",
            diff=("{n} inch", "{n} inches"),
        ),
        categories=(
            Category("snakes", ("ash python", "horned viper", "pygmy racer", "two-nosed asp", "coral snake", "tree boa", "king cobra"),
                     "the {v}", "is the {v}", "isn't the {v}"),
            Category("countries", ("Cambodia", "Nicaragua", "Spain", "Uganda", "Peru", "Vietnam", "Kenya"),
                     "the snake from {v}", "is from {v}", "isn't from {v}"),
            Category("colors", ("black & red", "brown & red", "green & white", "yellow & blue", "orange & black", "gray & tan", "olive & gold"),
                     "the {v} snake", "is {v}", "isn't {v}"),
            Category("keepers", ("Alma", "Boris", "Cecil", "Dora", "Ezra", "Fiona", "Gideon"),
                     "{v}'s snake", "belongs to {v}", "doesn't belong to {v}"),
        ),
    ),
    Theme(
        stories=(
            "The cake artists at Baker's Pride have a number of custom cake orders to finish this week.",
            "Lorena's Specialty Cakes has several different orders to fulfill before the weekend.",
        ),
        noun="cakes",
        key=KeyCategory(
            "prices", "money", (100, 125, 150), (25,),
            ref="the {k} cake", pred="costs {k}", neg="doesn't cost {k}",
            less="{a} costs {d} less than {b}", more="{a} costs {d} more than {b}",
            sooner="{a} costs less than {b}", later="{a} costs more than {b}",
            diff=("{n} dollar", "{n} dollars"),
        ),
        categories=(
            Category("customers", ("Erica", "Francisco", "Heidi", "Joey", "Zachary", "Marta", "Colin"),
                     "{v}'s cake", "was ordered by {v}", "wasn't ordered by {v}"),
            Category("shapes", ("beach chair", "football", "golf ball", "sports car", "train", "rocket ship", "sailboat", "turtle"),
                     "the cake shaped like a {v}", "is shaped like a {v}", "isn't shaped like a {v}"),
            Category("flavors", ("banana", "chocolate", "peach", "raspberry", "strawberry", "lemon", "coconut"),
                     "the {v} cake", "is {v} flavored", "isn't {v} flavored"),
            Category("decorators", ("Gloria", "Hector", "Ingrid", "Jasper", "Kelsey", "Lionel", "Miriam"),
                     "the cake decorated by {v}", "was decorated by {v}", "wasn't decorated by {v}"),
        ),
    ),
    Theme(
        stories=(
            "The Springfield County Bird Club met today, and several of its members brought their newest acquisitions.",
            "Several friends each bought a new pet bird this year.",
        ),
        noun="birds",
        key=KeyCategory(
            "months", "month", (1, 2, 3, 4, 5), (1, 2),
            ref="the bird bought in {k}", pred="was bought in {k}", neg="wasn't bought in {k}",
            less="{a} was bought {d} before {b}", more="{a} was bought {d} after {b}",
            sooner="{a} was bought sometime before {b}", later="{a} was bought sometime after {b}",
            diff=("{n} month", "{n} months"), maximum=12,
        ),
        categories=(
            Category("owners", ("Bonita", "Joan", "Laura", "Roberta", "Velma", "Agnes", "Hank"),
                     "{v}'s bird", "belongs to {v}", "doesn't belong to {v}"),
            Category("birds", ("finch", "lorikeet", "lovebird", "macaw", "parakeet", "canary", "cockatiel"),
                     "the {v}", "is the {v}", "isn't the {v}"),
            Category("pet names", ("Pepper", "Sunny", "Kiwi", "Mango", "Rio", "Biscuit", "Noodle"),
                     "the bird named {v}", "is named {v}", "isn't named {v}"),
            Category("cages", ("silver", "gold", "white", "black", "green", "blue", "red"),
                     "the bird in the {v} cage", "lives in the {v} cage", "doesn't live in the {v} cage"),
        ),
    ),
    Theme(
        stories=(
            "Several members of the Florida Trail Association each hiked a different trail segment today to check for storm damage.",
            "A group of friends met at the ranger station after each of them hiked a different trail.",
        ),
        noun="hikers",
        key=KeyCategory(
            "distances", "plain", (4, 5, 6, 8), (1, 2),
            ref="the hiker who hiked {k} miles", pred="hiked {k} miles", neg="didn't hike {k} miles",
            less="{a} hiked {d} less than {b}", more="{a} hiked {d} more than {b}",
            sooner="{a} hiked a shorter distance than {b}", later="{a} hiked a longer distance than {b}",
            diff=("{n} mile", "{n} miles"),
        ),
        categories=(
            _people("hikers", "Danielle, Esther, Lana, Meredith, Orlando, Claude, Iris"),
            Category("start points", ("Bull Creek", "Green Swamp", "Lake Jesup", "Reedy Creek", "Three Lakes", "Cassia", "Pine Hollow"),
                     "the hiker who started at {v}", "started at {v}", "didn't start at {v}"),
            Category("snacks", ("trail mix", "granola bars", "beef jerky", "dried mango", "peanuts", "raisins", "pretzels"),
                     "the hiker who brought {v}", "brought {v}", "didn't bring {v}"),
            Category("boots", ("Ridgeline", "Timberpeak", "Trekwise", "Summit", "Cairn", "Northstar", "Basecamp"),
                     "the hiker wearing {v} boots", "wore {v} boots", "didn't wear {v} boots"),
        ),
    ),
    Theme(
        stories=(
            "Lou's Bar and Grill held a friendly darts tournament this week.",
            "The Elm Street pub crowned the winners of its monthly darts night.",
        ),
        noun="players",
        key=KeyCategory(
            "scores", "plain", (34, 41, 48), (7, 5),
            ref="the player who scored {k} points", pred="scored {k} points", neg="didn't score {k} points",
            less="{a} scored {d} fewer than {b}", more="{a} scored {d} more than {b}",
            sooner="{a} scored fewer points than {b}", later="{a} scored more points than {b}",
            diff=("{n} point", "{n} points"),
        ),
        categories=(
            _people("players", "Colin, Felix, Greg, Matthew, Tom, Ruben, Stan"),
            Category("colors", ("black", "gray", "red", "white", "yellow", "purple", "orange"),
                     "the player with the {v} darts", "threw {v} darts", "didn't throw {v} darts"),
            Category("hometowns", ("Mount Union", "Oakland Acres", "Toledo", "Worthington", "Yorktown", "Bristol", "Fort Kent"),
                     "the player from {v}", "is from {v}", "isn't from {v}"),
            Category("jobs", ("dentist", "plumber", "teacher", "baker", "nurse", "pilot", "lawyer"),
                     "the {v}", "works as a {v}", "doesn't work as a {v}"),
        ),
    ),
    Theme(
        stories=(
            "Nicholas and Edith are having a small dinner party this evening, and they have decided to open a few rare wines from their collection.",
            "The Cedar Valley wine club is tasting a flight of older vintages tonight.",
        ),
        noun="wines",
        key=KeyCategory(
            "vintages", "year", (1980, 1984, 1988), (2, 4),
            ref="the {k} bottle", pred="was bottled in {k}", neg="wasn't bottled in {k}",
            less="{a} was bottled {d} before {b}", more="{a} was bottled {d} after {b}",
            sooner="{a} was bottled sometime before {b}", later="{a} was bottled sometime after {b}",
            diff=("{n} year", "{n} years"),
        ),
        categories=(
            Category("wines", ("Annata Branco", "Bianca Flaux", "Ece Suss", "Vendemmia", "Chateau Roux", "Vallebria", "Monte Lusa"),
                     "the {v}", "is the {v}", "isn't the {v}"),
            Category("types", ("gewurztraminer", "merlot", "pinot noir", "riesling", "shiraz", "malbec", "zinfandel"),
                     "the {v}", "is a {v}", "isn't a {v}"),
            Category("countries", ("Chile", "France", "Italy", "Spain", "Portugal", "Austria", "Greece"),
                     "the wine from {v}", "is from {v}", "isn't from {v}"),
            Category("guests", ("Harold", "Priya", "Quentin", "Simone", "Tobias", "Ursula", "Vince"),
                     "the bottle {v} brought", "was brought by {v}", "wasn't brought by {v}"),
        ),
    ),
    Theme(
        stories=(
            "The Brisco County Fair featured a number of local jugglers during last night's grand finale performance.",
            "Several street performers took turns on the main stage at this year's summer festival.",
        ),
        noun="performers",
        key=KeyCategory(
            "orders", "ordinal", (1,), (1,),
            ref="the performer who went {k}", pred="went {k}", neg="didn't go {k}",
            less="{a} performed {d} before {b}", more="{a} performed {d} after {b}",
            sooner="{a} performed sometime before {b}", later="{a} performed sometime after {b}",
            diff=("{n} spot", "{n} spots"),
        ),
        categories=(
            _people("names", "Howard, Katrina, Melissa, Nick, Peter, Shari, Yolanda"),
            Category("items", ("balls", "batons", "bowling pins", "chainsaws", "flashlights", "torches", "rings"),
                     "the juggler who used {v}", "juggled {v}", "didn't juggle {v}"),
            Category("towns", ("Carbon", "Dubuque", "Menlo", "Nice", "Quasqueton", "Selma", "Tabor"),
                     "the performer from {v}", "is from {v}", "isn't from {v}"),
            Category("costumes", ("red", "blue", "green", "silver", "orange", "violet", "gold"),
                     "the performer in {v}", "wore {v}", "didn't wear {v}"),
        ),
    ),
    Theme(
        stories=(
            "Sal, a newly hired police officer, has written a number of parking tickets this week.",
            "The city clerk is sorting out a stack of unpaid parking fines.",
        ),
        noun="cars",
        key=KeyCategory(
            "fines", "money", (25, 50), (25,),
            ref="the car with the {k} fine", pred="got the {k} fine", neg="didn't get the {k} fine",
            less="{a} was fined {d} less than {b}", more="{a} was fined {d} more than {b}",
            sooner="{a} was fined less than {b}", later="{a} was fined more than {b}",
            diff=("${n}", "${n}"),
        ),
        categories=(
            Category("cars", ("Cavalo", "Dartson", "Etsalle", "Injitsu", "Fortima", "Gallant", "Hiroko"),
                     "the {v}", "is the {v}", "isn't the {v}"),
            Category("license plates", ("BMG-831", "MRT-628", "SVZ-880", "YGA-441", "KLT-305", "PRW-172", "DXN-519"),
                     "the car with plate {v}", "has plate {v}", "doesn't have plate {v}"),
            Category("states", ("Kansas", "Mississippi", "Rhode Island", "Tennessee", "Oregon", "Vermont", "Nevada"),
                     "the car from {v}", "is from {v}", "isn't from {v}"),
            Category("owners", ("Ayla", "Bert", "Corinne", "Desmond", "Fay", "Gus", "Lorraine"),
                     "{v}'s car", "belongs to {v}", "doesn't belong to {v}"),
        ),
    ),
)
