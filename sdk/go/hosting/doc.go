// Apps, managed databases, service links, image registries and block volumes on the container hosting platform.
package hosting
