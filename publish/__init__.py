"""SVG boards and static HTML pages of annotated games.

``board_svg`` draws a position with its score (an lxml tree, for ``trictrac board``);
``PageBoards`` draws a page's boards as ``<use>`` of shared definitions;
``render_game`` / ``render_index`` / ``render_player`` build pages from templates
(every record text escaped by ``publish.markup.esc``; words from ``publish.i18n``);
``publish_files`` writes a whole site from record files.
"""

from .board import PageBoards, board_svg, svg_text
from .html import render_game, render_index, render_player
from .site import PublishReport, publish_files

__all__ = [
    "board_svg",
    "svg_text",
    "PageBoards",
    "render_game",
    "render_index",
    "render_player",
    "publish_files",
    "PublishReport",
]
