"""SVG boards and static HTML pages of annotated games (lxml; no template engine).

``board_svg`` draws a position with its score; ``render_game`` / ``render_index``
build pages; ``publish_files`` writes a whole site from record files.
"""

from trictrac.publish.board import board_svg, svg_text
from trictrac.publish.html import render_game, render_index
from trictrac.publish.site import PublishReport, publish_files

__all__ = ["board_svg", "svg_text", "render_game", "render_index", "publish_files", "PublishReport"]
