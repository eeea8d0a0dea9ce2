// Apple platforms only (iOS 17, tvOS 17, visionOS 1; UIKit): not part of Package.swift, not built on Linux.
// Copy this file into an app target that depends on the ActivityOverlay product.

#if canImport(UIKit)
    import ActivityOverlay
    import Observation
    import UIKit

    /// The loading overlay for UIKit: shown over a view, driven by an ``OverlayController``.
    ///
    /// `show(in:)` covers a view (a form, a view controller's view) and follows the controller from then
    /// on: it blocks touches whenever the controller says so (also during the grace period, before
    /// anything shows), dims and draws a spinner or a bar, the label, the message and a cancel button
    /// when the work is visible, and posts the controller's announcements to VoiceOver. `hide()` takes it
    /// away whatever the controller says (the screen is going away).
    ///
    /// ```swift
    /// let overlay = ActivityOverlay(controller: controller)
    /// overlay.show(in: view)
    /// Task { try await withActivity("Signing in", cancellable: true, blocking: .dim) { _ in try await signIn() } }
    /// ```
    @MainActor
    public final class ActivityOverlay: UIView {
        public let controller: OverlayController
        private let card = UIStackView()
        private let spinner = UIActivityIndicatorView(style: .large)
        private let bar = UIProgressView(progressViewStyle: .default)
        private let mark = UIImageView()
        private let titleLabel = UILabel()
        private let messageLabel = UILabel()
        private let cancelButton = UIButton(configuration: .plain())
        private var following = false

        public init(controller: OverlayController) {
            self.controller = controller
            super.init(frame: .zero)
            isHidden = true
            titleLabel.font = .preferredFont(forTextStyle: .headline)
            messageLabel.font = .preferredFont(forTextStyle: .subheadline)
            messageLabel.textColor = .secondaryLabel
            messageLabel.numberOfLines = 2
            for label in [titleLabel, messageLabel] { label.adjustsFontForContentSizeCategory = true }
            bar.widthAnchor.constraint(equalToConstant: 180).isActive = true
            cancelButton.addAction(
                UIAction { [weak self] _ in self?.controller.cancelTapped() }, for: .primaryActionTriggered)
            let background = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
            background.layer.cornerRadius = 16
            background.clipsToBounds = true
            card.axis = .vertical
            card.alignment = .center
            card.spacing = 12
            card.isLayoutMarginsRelativeArrangement = true
            card.directionalLayoutMargins = .init(top: 24, leading: 24, bottom: 24, trailing: 24)
            for view in [spinner, bar, mark, titleLabel, messageLabel, cancelButton] { card.addArrangedSubview(view) }
            card.insertSubview(background, at: 0)
            background.translatesAutoresizingMaskIntoConstraints = false
            card.translatesAutoresizingMaskIntoConstraints = false
            addSubview(card)
            NSLayoutConstraint.activate([
                background.leadingAnchor.constraint(equalTo: card.leadingAnchor),
                background.trailingAnchor.constraint(equalTo: card.trailingAnchor),
                background.topAnchor.constraint(equalTo: card.topAnchor),
                background.bottomAnchor.constraint(equalTo: card.bottomAnchor),
                card.centerXAnchor.constraint(equalTo: centerXAnchor),
                card.centerYAnchor.constraint(equalTo: centerYAnchor),
                card.widthAnchor.constraint(lessThanOrEqualTo: widthAnchor, constant: -48),
            ])
            titleLabel.accessibilityTraits = [.staticText, .updatesFrequently]
            addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped)))
            controller.onEffect = { effect in
                switch effect {
                case .announce(let text): UIAccessibility.post(notification: .announcement, argument: text)
                case .haptic(.success): UINotificationFeedbackGenerator().notificationOccurred(.success)
                case .haptic(.failure): UINotificationFeedbackGenerator().notificationOccurred(.error)
                case .cancelRequested: break
                }
            }
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

        /// Covers `view` and follows the controller until ``hide()``.
        public func show(in view: UIView) {
            removeFromSuperview()
            frame = view.bounds
            autoresizingMask = [.flexibleWidth, .flexibleHeight]
            view.addSubview(self)
            following = true
            follow()
        }

        /// Takes the overlay away now and stops following the controller.
        public func hide() {
            following = false
            removeFromSuperview()
        }

        /// Draws the state, and draws again when it changes (Observation calls back once per change).
        private func follow() {
            guard following else { return }
            let state = withObservationTracking {
                controller.state
            } onChange: { [weak self] in
                Task { @MainActor in self?.follow() }
            }
            apply(state)
        }

        private func apply(_ state: OverlayState) {
            isHidden = !state.isVisible && !state.blocksInput  // a clear, touch-eating view during the grace period
            isUserInteractionEnabled = state.blocksInput || state.isVisible
            backgroundColor =
                state.replacesContent ? .systemBackground : state.dims ? UIColor.black.withAlphaComponent(0.5) : .clear
            card.isHidden = !state.isVisible
            spinner.isHidden = state.content != .spinner
            if state.content == .spinner { spinner.startAnimating() } else { spinner.stopAnimating() }
            bar.isHidden = state.content.fraction == nil
            bar.progress = Float(state.content.fraction ?? 0)
            mark.isHidden = state.content != .success && state.content != .failure
            mark.image = UIImage(systemName: state.content == .success ? "checkmark.circle.fill" : "xmark.octagon.fill")
            mark.tintColor = state.content == .success ? .systemGreen : .systemRed
            titleLabel.text = state.title
            messageLabel.text = state.message
            messageLabel.isHidden = state.message == nil
            cancelButton.isHidden = !state.showsCancel
            cancelButton.isEnabled = state.cancel == .available
            cancelButton.configuration?.title =
                state.cancel == .requested ? "Cancelling…" : controller.configuration.texts.cancel
            titleLabel.accessibilityLabel = state.accessibilityLabel
            titleLabel.accessibilityValue = state.accessibilityValue
            accessibilityViewIsModal = state.isVisible
        }

        @objc private func tapped() {
            if controller.state.phase == .flashing { controller.flashTapped() }
        }
    }
#endif
