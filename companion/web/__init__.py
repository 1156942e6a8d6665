"""The HTTP layer: blueprints that parse forms, call the table service and render templates."""
