"""The documentation's Markdown pages, installed as ``catalog.docs`` so that
the server renders them at ``/docs/…`` (catalog/api/docs_pages.py)."""
