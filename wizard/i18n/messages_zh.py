"""Chinese templates of the message keys of messages_en.py (the same keys and parameters)."""

from wizard.i18n.messages import batch, chain, common, data, deploy, models, placement, roles, schema

MESSAGES: dict[str, str] = {
    **common.ZH,
    **schema.ZH,
    **roles.ZH,
    **models.ZH,
    **batch.ZH,
    **placement.ZH,
    **data.ZH,
    **deploy.ZH,
    **chain.ZH,
}
