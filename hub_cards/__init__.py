"""Dataset-card templates (package data of ``finereason.hub_cards``)."""
