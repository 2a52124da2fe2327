"""``python -m bot.bench``: see :mod:`bot.bench`."""

from bot.bench import main

main()
