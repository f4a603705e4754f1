"""Board themes: every colour a picture uses, one frozen table per theme.

Renderers take a `Theme` as an argument and know nothing of who chose it. Every table keeps
text at a contrast of at least 4.5:1 against what it is written on (tests/renderers/
test_themes.py computes it from these numbers), and no side is told from another by hue
alone: shapes, letters, seat numbers and fill lightness carry the difference in every theme.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Ink:
    """A filled thing and the colour written or outlined on it."""

    fill: RGB
    ink: RGB


@dataclass(frozen=True)
class KyoSide:
    """One Kyo side: its pawns, and its dark and light mana (deep and pale bars)."""

    pawn: Ink
    dark_mana: RGB
    light_mana: RGB


@dataclass(frozen=True)
class Theme:
    """All colours of a board picture. `light` and `dark` are the two-sided games' pieces
    (Quorum, Boku, Razzle Dazzle); `seats` are Boost's four seats."""

    name: str
    paper: RGB  # around the board
    ink: RGB  # text and outlines on paper
    label: RGB  # coordinates along the edges, on paper
    light_square: RGB
    dark_square: RGB
    line: RGB  # grid lines and cell edges
    board: RGB  # Boost's inner area
    rim: RGB  # Boost's edge ring, Boku's cell rims
    cell_name: RGB  # Boku's cell names, on a light square
    header: RGB
    header_text: RGB
    header_dim: RGB
    to_move: RGB  # the box round the player to move
    path: RGB  # the last move's route, start dot and landing ring
    capture: RGB  # captured points
    change: RGB  # points changed in place
    objective: RGB  # Quorum's objectives
    light: Ink
    dark: Ink
    seats: tuple[Ink, Ink, Ink, Ink]
    dragon: Ink
    ball: RGB
    badge: Ink  # Razzle Dazzle's "ineligible" badge
    blocked: Ink  # Boku's blocked cell
    win: RGB  # Boku's winning line
    gold: KyoSide
    red: KyoSide
    shield: Ink  # Kyo's shields: steel with a dark edge
    stack: RGB  # Kyo's column of chips, seen round and between them


# Okabe-Ito colours (distinguishable with the common kinds of colour blindness), some darkened
# so that a letter written on them keeps its contrast.
ORANGE: RGB = (230, 159, 0)
SKY: RGB = (86, 180, 233)
GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILION: RGB = (213, 94, 0)
DEEP_VERMILION: RGB = (180, 66, 0)
PURPLE: RGB = (204, 121, 167)

INK: RGB = (34, 34, 38)
PAPER: RGB = (250, 248, 242)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)

CLASSIC = Theme(
    name="classic",
    paper=PAPER,
    ink=INK,
    label=(90, 80, 70),
    light_square=(238, 216, 174),
    dark_square=(196, 160, 112),
    line=(120, 96, 64),
    board=(236, 212, 166),
    rim=(222, 196, 148),
    cell_name=(110, 88, 58),
    header=(44, 47, 51),
    header_text=(240, 240, 240),
    header_dim=(190, 194, 200),
    to_move=YELLOW,
    path=BLUE,
    capture=VERMILION,
    change=ORANGE,
    objective=ORANGE,
    light=Ink(PAPER, INK),
    dark=Ink(INK, PAPER),
    seats=(Ink(BLUE, PAPER), Ink(DEEP_VERMILION, PAPER), Ink(GREEN, INK), Ink(YELLOW, INK)),
    dragon=Ink((62, 62, 70), YELLOW),
    ball=YELLOW,
    badge=Ink(DEEP_VERMILION, PAPER),
    blocked=Ink((110, 110, 116), PAPER),
    win=GREEN,
    gold=KyoSide(
        pawn=Ink((240, 192, 60), INK),
        dark_mana=(206, 142, 14),
        light_mana=(255, 247, 220),
    ),
    red=KyoSide(
        pawn=Ink((150, 22, 42), PAPER),
        dark_mana=(206, 56, 76),
        light_mana=(252, 222, 226),
    ),
    shield=Ink((128, 144, 162), (58, 68, 82)),
    stack=INK,
)

DARK = Theme(
    name="dark",
    paper=(30, 32, 36),
    ink=(232, 232, 236),
    label=(200, 204, 212),
    light_square=(92, 100, 112),
    dark_square=(64, 70, 80),
    line=(150, 158, 170),
    board=(70, 76, 86),
    rim=(56, 61, 70),
    cell_name=(236, 238, 242),
    header=(18, 19, 22),
    header_text=(240, 240, 240),
    header_dim=(186, 190, 198),
    to_move=YELLOW,
    path=SKY,
    capture=(255, 120, 60),
    change=ORANGE,
    objective=ORANGE,
    light=Ink((236, 236, 240), (20, 20, 24)),
    dark=Ink((14, 14, 16), (236, 236, 240)),
    seats=(Ink(SKY, BLACK), Ink(VERMILION, BLACK), Ink(GREEN, BLACK), Ink(YELLOW, BLACK)),
    dragon=Ink((20, 20, 24), YELLOW),
    ball=YELLOW,
    badge=Ink((230, 80, 40), BLACK),
    blocked=Ink((150, 150, 156), BLACK),
    win=(60, 220, 160),
    gold=KyoSide(
        pawn=Ink((246, 204, 80), BLACK),
        dark_mana=(226, 170, 40),
        light_mana=(255, 244, 214),
    ),
    red=KyoSide(
        pawn=Ink((120, 10, 30), WHITE),
        dark_mana=(250, 120, 130),
        light_mana=(255, 226, 230),
    ),
    shield=Ink((150, 166, 184), (20, 24, 30)),
    stack=BLACK,
)

HIGH_CONTRAST = Theme(
    name="high-contrast",
    paper=WHITE,
    ink=BLACK,
    label=BLACK,
    light_square=WHITE,
    dark_square=(200, 200, 200),
    line=BLACK,
    board=WHITE,
    rim=(200, 200, 200),
    cell_name=BLACK,
    header=BLACK,
    header_text=WHITE,
    header_dim=WHITE,
    to_move=YELLOW,
    path=(0, 80, 200),
    capture=(200, 0, 0),
    change=(150, 60, 0),
    objective=(150, 60, 0),
    light=Ink(WHITE, BLACK),
    dark=Ink(BLACK, WHITE),
    seats=(
        Ink((0, 70, 160), WHITE),
        Ink((170, 30, 0), WHITE),
        Ink((0, 200, 140), BLACK),
        Ink(YELLOW, BLACK),
    ),
    dragon=Ink(BLACK, YELLOW),
    ball=YELLOW,
    badge=Ink((200, 0, 0), WHITE),
    blocked=Ink((90, 90, 90), WHITE),
    win=(0, 140, 60),
    gold=KyoSide(
        pawn=Ink((255, 210, 40), BLACK),
        dark_mana=(200, 140, 0),
        light_mana=WHITE,
    ),
    red=KyoSide(
        pawn=Ink((140, 0, 20), WHITE),
        dark_mana=(200, 30, 50),
        light_mana=(255, 220, 225),
    ),
    shield=Ink((150, 160, 175), BLACK),
    stack=BLACK,
)

THEMES: dict[str, Theme] = {theme.name: theme for theme in (CLASSIC, DARK, HIGH_CONTRAST)}
DEFAULT = CLASSIC


def get_theme(theme: Theme | str | None) -> Theme:
    """A theme by name (None is the default); raises ValueError naming the themes there are."""
    if theme is None:
        return DEFAULT
    if isinstance(theme, Theme):
        return theme
    found = THEMES.get(theme.strip().lower())
    if found is None:
        raise ValueError(f"There is no theme {theme!r}; choose {', '.join(THEMES)}.")
    return found


def luminance(colour: RGB) -> float:
    """Relative luminance as WCAG defines it."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_pairs(theme: Theme) -> dict[str, tuple[RGB, RGB]]:
    """Every (text, ground) pair a picture writes in this theme, by what it is."""
    pairs = {
        "header title": (theme.header_text, theme.header),
        "header detail": (theme.header_dim, theme.header),
        "coordinates": (theme.label, theme.paper),
        "notes on the paper": (theme.ink, theme.paper),
        "cell names": (theme.cell_name, theme.light_square),
        "light pieces": (theme.light.ink, theme.light.fill),
        "dark pieces": (theme.dark.ink, theme.dark.fill),
        "dragon": (theme.dragon.ink, theme.dragon.fill),
        "gold pawns": (theme.gold.pawn.ink, theme.gold.pawn.fill),
        "red pawns": (theme.red.pawn.ink, theme.red.pawn.fill),
        "badge": (theme.badge.ink, theme.badge.fill),
    }
    for seat, ink in enumerate(theme.seats, start=1):
        pairs[f"Boost seat {seat}"] = (ink.ink, ink.fill)
    return pairs
