"""Sources of one environment through the native plugin, from Python."""

import pulumi
import pulumi_assetdelivery as assetdelivery

config = pulumi.Config()
env = config.require("env")
cache_ttl_seconds = config.get_int("cacheTtlSeconds") or 86400

# An explicit provider: this environment's account (a second account would be another provider).
account = assetdelivery.Provider(
    "account",
    base_url=config.require("baseUrl"),
    api_key=config.require_secret("apiKey"),
)

photos = assetdelivery.Source(
    "photos",
    name=f"Photos ({env})",
    deployment=assetdelivery.WebfolderDeploymentArgs(
        type="webfolder",
        service_subdomains=[f"python-native-photos-{env}"],
        webfolder_base_url="https://origin.example.com/photos/",
        username="delivery",
        password=config.require_secret("originPassword"),  # secret in the state, nested where it lives
        cache_ttl_behavior="override_origin",
        cache_ttl_value=cache_ttl_seconds,
        default_params={"auto": "format,compress"},
    ),
    opts=pulumi.ResourceOptions(provider=account),
)

# An invoke: the Source as the server has it, through the same account.
live = assetdelivery.get_source_output(id=photos.id, opts=pulumi.InvokeOutputOptions(provider=account))

pulumi.export("photosId", photos.id)
pulumi.export("status", live.deployment_status)
pulumi.export("passwordSet", photos.password_set)
