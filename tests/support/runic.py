"""A runic mage with an Information spell, for tests of secret rolls: Merlin, who knows Seek (Gal-Aq)."""

SEEK_MAGE = (
    "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
    "/runic mage word word:Gal skill:14",
    "/runic mage word word:Aq skill:14",
    "/runic spell define name:Seek words:Gal-Aq type:information known:true",
)
