// Apple platforms only (iOS 17, macOS 14, tvOS 17, visionOS 1): not part of Package.swift, not built on Linux.
// Copy this file into an app target that depends on the ActivityOverlay and ActivityReporting products.

#if canImport(SwiftUI)
    import ActivityOverlay
    import SwiftUI

    extension View {
        /// Covers the view with the loading overlay that `controller` drives.
        ///
        /// The content stays in place and is dimmed (or hidden, with the replace-content style); input
        /// is blocked whenever the controller says so, also during the grace period, before anything
        /// shows, so a "Log in" button cannot be tapped twice.
        ///
        /// ```swift
        /// LoginForm()
        ///     .activityOverlay(overlay)
        /// ```
        public func activityOverlay(_ controller: OverlayController) -> some View {
            modifier(ActivityOverlayModifier(controller: controller))
        }
    }

    private struct ActivityOverlayModifier: ViewModifier {
        let controller: OverlayController

        func body(content: Content) -> some View {
            let state = controller.state
            content
                .opacity(state.replacesContent ? 0 : 1)
                .allowsHitTesting(!state.blocksInput)  // also during the grace period, before anything shows
                .accessibilityHidden(state.isVisible)
                .overlay {
                    if state.isVisible {
                        ZStack {
                            Color.black.opacity(state.dims ? 0.5 : 0)
                                .ignoresSafeArea()
                            ActivityOverlayCard(state: state, controller: controller)
                        }
                        .transition(.opacity)
                    }
                }
                .animation(.easeInOut(duration: 0.15), value: state.isVisible)
                .onAppear {
                    controller.onEffect = { effect in
                        switch effect {
                        case .announce(let text):
                            AccessibilityNotification.Announcement(text).post()
                        case .haptic, .cancelRequested:
                            break  // sensoryFeedback below plays the haptics
                        }
                    }
                }
                .sensoryFeedback(trigger: state.content) { _, content in
                    switch content {
                    case .success: .success
                    case .failure: .error
                    default: nil
                    }
                }
        }
    }

    private struct ActivityOverlayCard: View {
        let state: OverlayState
        let controller: OverlayController

        var body: some View {
            VStack(spacing: 12) {
                switch state.content {
                case .spinner:
                    ProgressView()
                        .controlSize(.large)
                case .progress(let fraction):
                    ProgressView(value: fraction)
                        .frame(width: 180)
                case .success:
                    Image(systemName: "checkmark.circle.fill").font(.largeTitle).foregroundStyle(.green)
                case .failure:
                    Image(systemName: "xmark.octagon.fill").font(.largeTitle).foregroundStyle(.red)
                }
                Text(state.title).font(.headline)
                if let message = state.message {
                    Text(message).font(.subheadline).foregroundStyle(.secondary)
                }
                if state.showsCancel {
                    Button(state.cancel == .requested ? "Cancelling…" : controller.configuration.texts.cancel) {
                        controller.cancelTapped()
                    }
                    .disabled(state.cancel == .requested)
                }
            }
            .padding(24)
            .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 16))
            .onTapGesture {
                if state.phase == .flashing { controller.flashTapped() }
            }
            .accessibilityElement(children: .combine)
            .accessibilityLabel(state.accessibilityLabel)
            .accessibilityValue(state.accessibilityValue ?? "")
            .accessibilityAddTraits(.updatesFrequently)
        }
    }
#endif
