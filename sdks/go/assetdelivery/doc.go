// Manage an image-delivery service's Sources (image origins and delivery settings) and read its reports and video jobs.
package assetdelivery
