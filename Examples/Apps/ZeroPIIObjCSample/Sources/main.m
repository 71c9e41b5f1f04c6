#import <UIKit/UIKit.h>
#import "ZPSAppDelegate.h"

int main(int argc, char *argv[]) {
    @autoreleasepool {
        return UIApplicationMain(argc, argv, nil, NSStringFromClass([ZPSAppDelegate class]));
    }
}
