"""The battle screen's widgets: they take attributes from the screen and post messages up."""
