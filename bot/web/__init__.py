"""The campaign on the web (docs/web.md): read-only pages of a campaign, served by the bot itself.

``app`` routes and limits, ``render`` draws the Jinja2 templates; what a page may show is the table layer's
(:mod:`bot.table.pages`, :mod:`bot.table.weblinks`). Beside ``bot.adapter``: it reads only through ``bot.table``,
never the store, and knows nothing of Discord.
"""
