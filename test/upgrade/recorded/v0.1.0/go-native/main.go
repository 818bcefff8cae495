// A team's Go program on the native plugin, recorded by tools/record-upgrade-states.sh: the default
// provider (the stack's assetdelivery:apiKey, the address from ASSET_DELIVERY_BASE_URL), a gcs
// Source with its write-only secret and a web proxy with secure URLs on.
package main

import (
	"github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		archive, err := assetdelivery.NewSource(ctx, "archive", &assetdelivery.SourceArgs{
			Name: pulumi.String("Upgrade archive (gcs, Go)"),
			Deployment: assetdelivery.GcsDeploymentArgs{
				Type:              pulumi.String("gcs"),
				ServiceSubdomains: pulumi.StringArray{pulumi.String("upgrade-go-gcs")},
				GcsAccessKey:      pulumi.String("GOOGUPGRADEGO"),
				GcsBucket:         pulumi.String("upgrade-go-archive"),
				GcsPrefix:         pulumi.String("originals/"),
				GcsSecretKey:      cfg.RequireSecret("gcsSecretKey"),
			},
		})
		if err != nil {
			return err
		}

		proxy, err := assetdelivery.NewSource(ctx, "proxy", &assetdelivery.SourceArgs{
			Name: pulumi.String("Upgrade proxy (webproxy, Go)"),
			Deployment: assetdelivery.WebproxyDeploymentArgs{
				Type:              pulumi.String("webproxy"),
				ServiceSubdomains: pulumi.StringArray{pulumi.String("upgrade-go-proxy")},
				SecureUrlEnabled:  pulumi.Bool(true),
				CacheTtlError:     pulumi.Int(60),
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("archiveId", archive.ID())
		ctx.Export("proxyId", proxy.ID())
		return nil
	})
}
