"""Application services: what the app does, one module per feature, between the views (which parse
forms and render) and the store (SQL) and the rule engine (`scoring`)."""
