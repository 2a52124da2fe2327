"""Magister: a Discord game master for tabletop games built on spellcasting."""
