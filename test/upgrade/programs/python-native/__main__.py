"""A team's Python program on the native plugin, recorded by tools/record-upgrade-states.sh."""

import pulumi
import pulumi_assetdelivery as assetdelivery

config = pulumi.Config()

# The default provider: the stack's assetdelivery:apiKey, the address from ASSET_DELIVERY_BASE_URL.
media = assetdelivery.Source(
    "media",
    name="Upgrade media (azure, Python)",
    deployment=assetdelivery.AzureDeploymentArgs(
        type="azure",
        service_subdomains=["upgrade-py-azure"],
        azure_account="upgradepymedia",
        azure_bucket="media",
        azure_service_type="file",
        azure_sas_string=config.require_secret("azureSasString"),
        secure_url_enabled=True,
    ),
)

spaces = assetdelivery.Source(
    "spaces",
    name="Upgrade spaces (s3_compatible, Python)",
    deployment=assetdelivery.S3CompatibleDeploymentArgs(
        type="s3_compatible",
        service_subdomains=["upgrade-py-spaces"],
        access_key_id="WASABIUPGRADE",
        bucket_name="upgrade-py-spaces",
        endpoint_url="https://s3.wasabisys.com",
        region="us-east-1",
        storage_provider="Wasabi",
        secret_key=config.require_secret("spacesSecretKey"),
    ),
)

live = assetdelivery.get_source_output(id=media.id)

pulumi.export("mediaId", media.id)
pulumi.export("spacesId", spaces.id)
pulumi.export("mediaStatus", live.deployment_status)
