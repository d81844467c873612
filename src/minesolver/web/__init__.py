"""The web app (``minesolver serve``): a JSON API and a static page; needs the ``web`` extra."""

from minesolver.web.app import Settings, create_app

__all__ = ["Settings", "create_app"]
